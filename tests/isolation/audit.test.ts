import { expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiKeyUsage, organizations } from "../../src/db/schema/index.ts";
import { sendRecorded, storedEntries } from "../audit/helpers.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";
import { twoOrganizations } from "./helpers.ts";

// a sign-in hashes a password at OWASP's scrypt cost (about a second, more under load)
setDefaultTimeout(120_000);

/**
 * The usage and audit trail across two organizations: each request and event is written into
 * its own organization's trail, and B's reads (pages, filters, cursors, export, key usage)
 * and B's retention never show or remove anything of A's (docs/security.md#audit-trail).
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  const rowsOf = async (organizationId: string) => {
    await app.services.auditTrail.flush();
    return storedEntries(app.services.database.db, organizationId);
  };

  /** A on ENTERPRISE (kept 400 days), B on FREE (kept 7 days): what retention tells apart */
  const enterpriseAndFree = async () => {
    const { a, b } = await twoOrganizations(make);
    const { db } = app.services.database;
    const plan = (id: string, value: "ENTERPRISE" | "FREE") =>
      db.update(organizations).set({ plan: value }).where(eq(organizations.id, id));
    await plan(a.organizationId, "ENTERPRISE");
    await plan(b.organizationId, "FREE");
    return { a, b, db };
  };

  test("audit: B's pages, filters, cursors and export never show A's entries, even filtered by A's key", async () => {
    const { a, b } = await twoOrganizations(make);
    for (let i = 0; i < 3; i++) await sendRecorded(app, "/api/v1/whoami", { key: a.key });
    await sendRecorded(app, "/api/v1/whoami", { key: b.key });
    const aRows = await rowsOf(a.organizationId);
    expect(aRows.filter((r) => r.kind === "request")).toHaveLength(3);
    expect(aRows.every((r) => r.organizationId === a.organizationId)).toBe(true);

    const page = await (await send(app, "/api/v1/audit-log?limit=200", { key: b.key })).json();
    expect(page.data.length).toBeGreaterThan(0);
    for (const entry of page.data)
      expect(entry.keyId === a.apiKey.id || entry.userId === a.user.id).toBe(false);
    const byAKey = await (
      await send(app, `/api/v1/audit-log?keyId=${a.apiKey.id}`, { key: b.key })
    ).json();
    expect(byAKey).toEqual({ data: [], nextCursor: null });
    const byAUser = await graphql(
      app,
      b.key,
      `{ auditLog(filter: { userId: "${a.user.id}" }) { data { id } } }`,
    );
    expect(byAUser.json.data.auditLog.data).toEqual([]);

    // a cursor made from A's newest row only positions B's list; it never yields A's rows
    const newestA = aRows.at(-1);
    const cursor = Buffer.from(`${newestA?.at.getTime()}:${newestA?.id}:1`).toString("base64url");
    const afterA = await (
      await send(app, `/api/v1/audit-log?after=${cursor}`, { key: b.key })
    ).json();
    for (const entry of afterA.data) expect(entry.keyId).not.toBe(a.apiKey.id);

    const now = app.services.now().getTime();
    const range = `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}`;
    const exported = await (
      await send(app, `/api/v1/audit-log/export?${range}`, { key: b.key })
    ).text();
    const lines = exported
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect([line.keyId, line.userId]).not.toContain(a.apiKey.id);
    expect(lines.some((l) => l.userId === a.user.id)).toBe(false);
  });

  test("audit: a sign-in is recorded in each organization of the member, never in another", async () => {
    const { a, b } = await twoOrganizations(make);
    const third = await make.organization();
    const user = await memberWithPassword(app, make, a.organizationId);
    await app.services.operator.addMember({
      organizationId: b.organizationId,
      userId: user.id,
      role: "technician",
    });
    const browser = pageClient(app);
    expect((await browser.signIn(user.email, PASSWORD)).status).toBe(303);
    const signedIn = async (organizationId: string) =>
      (await rowsOf(organizationId)).filter(
        (r) => r.kind === "session.signed_in" && r.userId === user.id,
      );
    expect(await signedIn(a.organizationId)).toHaveLength(1);
    expect(await signedIn(b.organizationId)).toHaveLength(1);
    expect(await signedIn(third.id)).toHaveLength(0);
  });

  test("audit: B's usage page of A's key is not found; each sees its own key's usage", async () => {
    const { a, b } = await twoOrganizations(make);
    await sendRecorded(app, "/api/v1/whoami", { key: a.key });
    await app.services.auditTrail.flush();
    const bMember = { userId: b.user.id };
    await expect(app.services.audit.keyUsageForMember(bMember, a.apiKey.id)).rejects.toThrow(
      "API key not found",
    );
    const aUsage = await app.services.audit.keyUsageForMember({ userId: a.user.id }, a.apiKey.id);
    expect(aUsage.requestsLast24h).toBe(1);
    const bUsage = await app.services.audit.keyUsageForMember(bMember, b.apiKey.id);
    expect(bUsage.requestsLast24h).toBe(0);
  });

  test("audit: retention removes B's expired rows (FREE, 7 days) and keeps A's (ENTERPRISE)", async () => {
    const { a, b, db } = await enterpriseAndFree();
    const { deleteExpiredAuditBatch } = await import("../../src/db/queries/audit-log.ts");
    await app.services.auditTrail.flush();
    const cutoff = new Date(app.services.now().getTime() + 60_000); // everything so far is "old"
    const aBefore = await rowsOf(a.organizationId);
    expect(aBefore.length).toBeGreaterThan(0);
    expect((await rowsOf(b.organizationId)).length).toBeGreaterThan(0);
    await deleteExpiredAuditBatch(db, "FREE", cutoff, 1_000);
    expect(await rowsOf(b.organizationId)).toEqual([]);
    expect(await rowsOf(a.organizationId)).toEqual(aBefore);
  });

  test("audit: key-usage retention removes B's expired hourly counts (FREE) and keeps A's (ENTERPRISE)", async () => {
    const { a, b, db } = await enterpriseAndFree();
    await sendRecorded(app, "/api/v1/whoami", { key: a.key });
    await sendRecorded(app, "/api/v1/whoami", { key: b.key });
    await app.services.auditTrail.flush();
    const countsOf = (organizationId: string) =>
      db
        .select({ key: apiKeyUsage.apiKeyId, requests: apiKeyUsage.requests })
        .from(apiKeyUsage)
        .where(eq(apiKeyUsage.organizationId, organizationId));
    const aBefore = await countsOf(a.organizationId);
    expect(aBefore).toEqual([{ key: a.apiKey.id, requests: 1 }]);
    expect(await countsOf(b.organizationId)).toEqual([{ key: b.apiKey.id, requests: 1 }]);
    const { deleteExpiredKeyUsage } = await import("../../src/db/queries/audit-log.ts");
    // two hours on: this hour's counts are wholly past the cutoff
    const cutoff = new Date(app.services.now().getTime() + 2 * 3_600_000);
    expect(await deleteExpiredKeyUsage(db, cutoff, "FREE")).toBe(1);
    expect(await countsOf(b.organizationId)).toEqual([]);
    expect(await countsOf(a.organizationId)).toEqual(aBefore);
  });
}

describeEachDriver("tenant isolation: audit trail", suite);
