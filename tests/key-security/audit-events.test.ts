import { expect, setDefaultTimeout, test } from "bun:test";
import { and, asc, eq, like } from "drizzle-orm";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { sendRecorded, storedEntries } from "../audit/helpers.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";
import { operator, ROTATE, SET_IPS, SET_POLICY, UPDATE_ORG } from "./ops.ts";

// a sign-in on the settings screen hashes a password at OWASP's scrypt cost
setDefaultTimeout(120_000);

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
        detail: { by: "operator", from: null, to: 90 },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(data.rotateApiKey.secret);
  });

  test("requests refused by the allowlist (403) or with a rotated secret (401) are in the trail once each", async () => {
    const member = await make.member({ expiresIn: "DAYS_30" });
    await operator(app, SET_IPS, { id: member.apiKey.id, ips: ["203.0.113.0/24"] });
    const made: [string, string, number][] = [];
    const call = async (path: string, key: string, peer: string, template = path) => {
      const response = await sendRecorded(app, path, { key, peer });
      made.push([template, peer, response.status]);
      return response;
    };
    expect((await call("/api/v1/whoami", member.key, "203.0.113.7")).status).toBe(200);
    const outside = await call(
      "/api/v1/tickets/T-1",
      member.key,
      "198.51.100.1",
      "/api/v1/tickets/:id",
    );
    expect(outside.status).toBe(403);
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id, grace: 0 });
    const rotated = await call("/api/v1/whoami", member.key, "203.0.113.7");
    expect(rotated.status).toBe(401);
    expect(await rotated.json()).toEqual({ error: "API key rotated" });
    expect((await call("/api/v1/whoami", data.rotateApiKey.secret, "203.0.113.8")).status).toBe(
      200,
    );
    await app.services.auditTrail.flush();
    const rows = (await storedEntries(db.database.db, member.organizationId)).filter(
      (r) => r.kind === "request",
    );
    expect(rows.map((r) => [r.route, r.ip, r.status])).toEqual(made);
    const newKeyId = data.rotateApiKey.apiKey.id;
    expect(rows.map((r) => r.apiKeyId)).toEqual([
      member.apiKey.id,
      member.apiKey.id,
      member.apiKey.id,
      newKeyId,
    ]);
  });

  /** The organization's policy events, oldest first: who, and the value before and after. */
  async function policyEvents(organizationId: string) {
    await app.services.auditTrail.flush();
    const rows = await db.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.organizationId, organizationId),
          eq(auditLog.kind, "organization.key_policy_changed"),
        ),
      )
      .orderBy(asc(auditLog.at), asc(auditLog.id));
    return rows.map((r) => ({ userId: r.userId, detail: r.detail }));
  }

  test("updateOrganization's maxKeyLifetimeDays is recorded like setKeyLifetimePolicy: old → new, by whom", async () => {
    const org = await make.organization();
    const update = (input: Record<string, unknown>) =>
      operator(app, UPDATE_ORG, { id: org.id, input });
    expect((await update({ maxKeyLifetimeDays: 30 })).error).toBeUndefined();
    expect((await update({ maxKeyLifetimeDays: 30, name: "Renamed" })).error).toBeUndefined();
    expect((await update({ maxKeyLifetimeDays: null })).error).toBeUndefined();
    const refused = await update({ maxKeyLifetimeDays: 0 });
    expect(refused.error?.extensions.status, "a bad value changes nothing").toBe(400);
    expect((await update({ name: "Without the policy" })).error).toBeUndefined();
    await operator(app, SET_POLICY, { org: org.id, days: 7 });
    await operator(app, SET_POLICY, { org: org.id, days: 7 });
    expect(await policyEvents(org.id), "a change once each; none when the value stays").toEqual([
      { userId: null, detail: { by: "operator", from: null, to: 30 } },
      { userId: null, detail: { by: "operator", from: 30, to: null } },
      { userId: null, detail: { by: "operator", from: null, to: 7 } },
    ]);
  });

  test("an ADMIN seat's change on the settings screen names the member", async () => {
    const org = await make.organization();
    const admin = await memberWithPassword(app, make, org.id, "admin");
    await operator(app, SET_POLICY, { org: org.id, days: 90 });
    const browser = pageClient(app);
    expect((await browser.signIn(admin.email)).status).toBe(303);
    const saved = await browser.post("/settings/api-keys/policy", {
      _csrf: browser.sessionCsrf(),
      org: org.id,
      maxKeyLifetimeDays: "14",
    });
    expect(saved.status).toBe(303);
    expect((await policyEvents(org.id)).at(-1)).toEqual({
      userId: admin.id,
      detail: { by: "member", from: 90, to: 14 },
    });
  });
}

describeEachDriver("key security in the audit trail", suite);
