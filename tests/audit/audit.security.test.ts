import { expect, test } from "bun:test";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { AUDIT_SCOPES, auditor, sendRecorded } from "./helpers.ts";

const LIST = "/api/v1/audit-log";
const EXPORT = "/api/v1/audit-log/export?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z";
const QUERY = "{ auditLog { data { id } } }";

/** Who may read the trail (audit.view on an ADMIN seat, scope audit:read) and what it keeps. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  async function refused(key: string | undefined, status: number, error: string) {
    for (const path of [LIST, EXPORT]) {
      const response = await send(app, path, { key });
      expect({ path, status: response.status }).toEqual({ path, status });
      expect((await response.json()).error, path).toBe(error);
    }
    const { json } = await graphql(app, key, QUERY);
    expect(json.errors?.[0]?.message ?? json.error).toBe(error);
  }

  test("a member without audit.view (a technician) → 403, on REST, the export and GraphQL", async () => {
    const { key } = await make.member({ role: "technician", scopes: AUDIT_SCOPES });
    await refused(key, 403, "Missing permission: audit.view");
  });

  test("a custom role granted audit.view on a technician seat is still refused: ADMIN seats only", async () => {
    const reader = await auditor(make);
    await make.role(reader.organizationId, "auditor", "TECHNICIAN", ["audit.view"]);
    const { key } = await make.member({
      organizationId: reader.organizationId,
      role: "auditor",
      scopes: AUDIT_SCOPES,
    });
    await refused(key, 403, "Reading the audit log requires an administrator seat");
  });

  test("an ADMIN's key without scope audit:read → 403 Missing scope", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    await refused(key, 403, "Missing scope: audit:read");
  });

  test("without a key → 401, and nothing is recorded for the refused caller", async () => {
    const before = app.services.auditTrail.stats.received;
    const response = await send(app, LIST);
    expect(response.status).toBe(401);
    const bad = await send(app, LIST, { key: "orgit_live_not-a-real-key" });
    expect(bad.status).toBe(401);
    expect(app.services.auditTrail.stats.received).toBe(before);
  });

  test("the trail keeps route templates, never the raw path, its query or the key's secret", async () => {
    const reader = await auditor(make);
    await sendRecorded(app, "/api/v1/tickets?status=open&search=s3cr3t-search", {
      key: reader.key,
      headers: { "user-agent": "probe/1.0" },
    });
    await sendRecorded(app, `/api/v1/audit-log?from=2026-01-01T00:00:00Z`, { key: reader.key });
    await app.services.auditTrail.flush();
    const rows = await app.services.database.db.select().from(auditLog);
    const text = JSON.stringify(rows);
    expect(text).not.toContain("s3cr3t-search");
    expect(text).not.toContain("status=open");
    expect(text).not.toContain(reader.key);
    expect(text).not.toContain(reader.key.slice(-20));
    const routes = new Set(rows.map((r) => r.route).filter(Boolean));
    expect([...routes].every((r) => !(r as string).includes("?"))).toBe(true);
    const ticketRow = rows.find((r) => r.route === "/api/v1/tickets");
    expect(ticketRow?.userAgent).toBe("probe/1.0");
  });

  test("key usage on the settings screen: an ADMIN seat sees every key of its organization, a technician only its own", async () => {
    const admin = await auditor(make);
    const tech = await make.member({ organizationId: admin.organizationId, role: "technician" });
    const other = await make.member({ organizationId: admin.organizationId, role: "technician" });
    const usage = (userId: string, keyId: string) =>
      app.services.audit.keyUsageForMember({ userId }, keyId);
    expect((await usage(admin.user.id, tech.apiKey.id)).keyId).toBe(tech.apiKey.id);
    expect((await usage(tech.user.id, tech.apiKey.id)).daily).toHaveLength(30);
    await expect(usage(tech.user.id, other.apiKey.id)).rejects.toThrow("API key not found");
    await expect(usage(tech.user.id, admin.apiKey.id)).rejects.toThrow("API key not found");
    await expect(usage(tech.user.id, "not-a-uuid")).rejects.toThrow("API key not found");
  });

  test("a FREE organization's ADMIN cannot read it over the API (no API access)", async () => {
    const { key } = await make.member({ plan: "FREE", scopes: AUDIT_SCOPES });
    await refused(key, 403, "API access requires the Pro plan");
  });
}

describeEachDriver("audit trail: who may read it", suite);
