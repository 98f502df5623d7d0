import { beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, type PageClient, pageClient } from "../helpers/settings.ts";
import { keyRow } from "./ops.ts";

// every sign-in hashes a password at OWASP's scrypt cost (about a second here)
setDefaultTimeout(120_000);

const DAY = 86_400_000;

/** Rotation, allowlists, the policy and the expiry banner on the settings screen (docs/settings.md). */
describeEachDriver("settings screen: key rotation, allowlists, lifetime policy", (driver) => {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });
  let orgId: string;
  let admin: PageClient;
  let adminUserId: string;

  beforeAll(async () => {
    const org = await make.organization({ name: "Acme" });
    orgId = org.id;
    const user = await memberWithPassword(app, make, org.id, "admin");
    adminUserId = user.id;
    admin = pageClient(app);
    await admin.signIn(user.email);
  });

  const list = async () => (await admin.get(`/settings/api-keys?org=${orgId}`)).text();
  const secretIn = (page: string) => page.match(/value="(orgit_[0-9A-Za-z]{40})"/)?.[1];
  const keyOf = (name: string, expiresIn: "NEVER" | "DAYS_30" = "DAYS_30") =>
    app.services.apiKeys.createApiKey({
      organizationId: orgId,
      userId: adminUserId,
      name,
      scopes: ["tickets:read"],
      expiresIn,
    });

  test("rotate with a confirmation: the new secret shown once, the old one's grace and use on the list", async () => {
    const { apiKey, secret: oldSecret } = await keyOf("Backup script");
    const confirm = await admin.get(`/settings/api-keys/${apiKey.id}/rotate?org=${orgId}`);
    const confirmHtml = await confirm.text();
    expect(confirm.status).toBe(200);
    expect(confirmHtml).toContain("Rotate “Backup script”?");
    expect(confirmHtml).toContain('<option value="86400" selected>1 day</option>');
    const rotated = await admin.post(`/settings/api-keys/${apiKey.id}/rotate`, {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      gracePeriod: "3600",
    });
    expect(rotated.status).toBe(303);
    const shown = await (await admin.get(rotated.headers.get("location") as string)).text();
    const newSecret = secretIn(shown);
    expect(newSecret, "the new secret is shown").toBeDefined();
    expect(shown).toContain("Key “Backup script” rotated.");
    expect(await list(), "and never again").not.toContain(newSecret as string);
    expect((await send(app, "/api/v1/whoami", { key: newSecret })).status).toBe(200);
    expect((await keyRow(db.database, apiKey.id))?.graceEndsAt?.getTime()).toBe(
      clock.now().getTime() + 3_600_000,
    );

    expect(
      (await send(app, "/api/v1/whoami", { key: oldSecret, peer: "203.0.113.7" })).status,
    ).toBe(200);
    await app.services.keys.flushLastUsed();
    clock.advance(3 * 60_000);
    const after = await list();
    expect(after).toContain(">rotated<");
    expect(after).toContain("Old secret works until");
    expect(after).toContain("old secret last used 3 min ago from <code>203.0.113.7</code>");
  });

  test("a rotation refused (the key was revoked meanwhile) shows why and changes nothing", async () => {
    const { apiKey } = await keyOf("Gone");
    await app.services.apiKeys.revokeApiKey(apiKey.id);
    const refused = await admin.post(`/settings/api-keys/${apiKey.id}/rotate`, {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      gracePeriod: "0",
    });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("API key revoked");
    expect((await keyRow(db.database, apiKey.id))?.rotatedAt).toBeNull();
  });

  test("an allowlist set at creation and edited: a bad entry is named and nothing changes", async () => {
    const created = await admin.post("/settings/api-keys", {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      name: "Office only",
      scopes: ["tickets:read"],
      expiration: "DAYS_30",
      allowedIps: "203.0.113.0/24\n2001:db8::/32",
    });
    expect(created.status).toBe(303);
    const secret = secretIn(
      await (await admin.get(created.headers.get("location") as string)).text(),
    );
    const office = (peer: string) => send(app, "/api/v1/whoami", { key: secret, peer });
    expect((await office("203.0.113.9")).status).toBe(200);
    expect((await office("198.51.100.9")).status).toBe(403);
    const page = await list();
    expect(page).toContain("Only from <code>203.0.113.0/24</code>, <code>2001:db8::/32</code>");
    const keyId = (await db.database.db.query.apiKeys.findMany()).find(
      (k) => k.name === "Office only",
    )?.id as string;

    const form = await admin.get(`/settings/api-keys/${keyId}/allowlist?org=${orgId}`);
    expect(await form.text()).toContain("203.0.113.0/24\n2001:db8::/32</textarea>");
    const bad = await admin.post(`/settings/api-keys/${keyId}/allowlist`, {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      allowedIps: "198.51.100.0/24\n300.1.1.1",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      "IP allowlist: Not an IPv4 or IPv6 address or network (CIDR with its host bits zero)",
    );
    expect((await office("198.51.100.9")).status, "unchanged").toBe(403);
    const saved = await admin.post(`/settings/api-keys/${keyId}/allowlist`, {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      allowedIps: "198.51.100.0/24",
    });
    expect(saved.status).toBe(303);
    expect(await (await admin.get(saved.headers.get("location") as string)).text()).toContain(
      "IP allowlist saved.",
    );
    expect((await office("198.51.100.9")).status).toBe(200);
    expect((await office("203.0.113.9")).status).toBe(403);
  });

  test("a banner names the keys expiring within 7 days", async () => {
    expect(await list()).not.toContain('data-testid="expiry-banner"');
    await app.services.apiKeys.createApiKey({
      organizationId: orgId,
      userId: adminUserId,
      name: "Soon",
      scopes: ["tickets:read"],
      expiresAt: new Date(clock.now().getTime() + 6 * DAY),
    });
    const page = await list();
    expect(page).toContain('data-testid="expiry-banner"');
    expect(page).toContain("A key expires within 7 days:");
    expect(page).toContain("“Soon”");
  });

  test("the ADMIN seat's policy: longer choices are no longer offered, longer keys are flagged", async () => {
    await keyOf("Forever", "NEVER");
    const below = await admin.post("/settings/api-keys/policy", {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      maxKeyLifetimeDays: "0",
    });
    expect(below.status).toBe(400);
    expect(await below.text()).toContain("Must be a whole number of days from 1 to 3650");
    const saved = await admin.post("/settings/api-keys/policy", {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      maxKeyLifetimeDays: "90",
    });
    expect(saved.status).toBe(303);
    const page = await (await admin.get(saved.headers.get("location") as string)).text();
    expect(page).toContain("Maximum key lifetime saved.");
    expect(page).toContain('data-testid="policy-days">90<');
    const options = [...page.matchAll(/<option value="([A-Z_0-9]+)"/g)].map((m) => m[1]);
    expect(options).toEqual(["DAYS_30", "DAYS_90"]);
    expect(page).toContain('data-testid="key-exceeds-policy"');
    const refused = await admin.post("/settings/api-keys", {
      _csrf: admin.sessionCsrf(),
      org: orgId,
      name: "Sneaky",
      scopes: ["tickets:read"],
      expiration: "NEVER",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      "Expiration: The organization allows API keys of at most 90 days",
    );
  });

  test("a technician sees the policy but cannot change it (403, unchanged)", async () => {
    const user = await memberWithPassword(app, make, orgId, "technician");
    const tech = pageClient(app);
    await tech.signIn(user.email);
    const page = await (await tech.get(`/settings/api-keys?org=${orgId}`)).text();
    expect(page).toContain('data-testid="policy-line"');
    expect(page).not.toContain('data-testid="policy-edit"');
    const refused = await tech.post("/settings/api-keys/policy", {
      _csrf: tech.sessionCsrf(),
      org: orgId,
      maxKeyLifetimeDays: "1",
    });
    expect(refused.status).toBe(403);
    expect(await app.services.keySecurity.maxLifetimeDays(orgId)).toBe(90);
  });
});
