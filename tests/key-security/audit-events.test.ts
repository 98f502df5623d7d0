import { expect, test } from "bun:test";
import { and, eq, like } from "drizzle-orm";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { operator, ROTATE, SET_IPS, SET_POLICY } from "./ops.ts";

/** Rotations, allowlist and policy changes are key events of the audit trail (docs/security.md). */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("a rotation, an allowlist change and a policy change each leave one audit event", async () => {
    const member = await make.member({ expiresIn: "DAYS_30" });
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id, grace: 600 });
    const newKeyId = data.rotateApiKey.apiKey.id as string;
    await operator(app, SET_IPS, { id: newKeyId, ips: ["203.0.113.0/24"] });
    await operator(app, SET_POLICY, { org: member.organizationId, days: 90 });
    await app.services.auditTrail.flush();
    const rows = await db.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, member.organizationId), like(auditLog.kind, "%_%.%")));
    const events = rows
      .filter((r) => r.method === null)
      .map((r) => ({ kind: r.kind, apiKeyId: r.apiKeyId, detail: r.detail }));
    const byKind = (a: { kind: string }, b: { kind: string }) => a.kind.localeCompare(b.kind);
    expect(events.filter((e) => e.kind !== "api_key.created").sort(byKind)).toEqual([
      {
        kind: "api_key.allowlist_changed",
        apiKeyId: newKeyId,
        detail: { name: "test key", from: [], to: ["203.0.113.0/24"] },
      },
      {
        kind: "api_key.rotated",
        apiKeyId: member.apiKey.id,
        detail: { name: "test key", newKeyId, gracePeriod: 600 },
      },
      {
        kind: "organization.key_policy_changed",
        apiKeyId: null,
        detail: { maxKeyLifetimeDays: 90 },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(data.rotateApiKey.secret);
  });
}

describeEachDriver("key security in the audit trail", suite);
