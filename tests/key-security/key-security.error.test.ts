import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organizations } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { keyRow, operator, ROTATE, SET_IPS, SET_POLICY } from "./ops.ts";

/** Bad input to rotation, allowlists and the policy: a 400 naming the field, nothing changed. */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const details = (error: { extensions: { details?: unknown } } | undefined) =>
    error?.extensions.details;

  test("an invalid address or CIDR is named by its position; the allowlist stays as it was", async () => {
    const member = await make.member();
    await operator(app, SET_IPS, { id: member.apiKey.id, ips: ["203.0.113.0/24"] });
    const bad = [
      "198.51.100.1",
      "10.0.0.0/33",
      "not-an-ip",
      "10.1.2.3/8",
      "2001:db8::/129",
      "1.2.3.4/",
    ];
    const { error } = await operator(app, SET_IPS, { id: member.apiKey.id, ips: bad });
    expect(error?.message).toBe("Validation failed");
    expect(error?.extensions.status).toBe(400);
    expect(details(error)).toEqual(
      [1, 2, 3, 4, 5].map((i) => ({
        path: ["allowedIps", String(i)],
        message: "Not an IPv4 or IPv6 address or network (CIDR with its host bits zero)",
      })),
    );
    expect((await keyRow(db.database, member.apiKey.id))?.allowedIps).toEqual(["203.0.113.0/24"]);
  });

  test("more than 50 entries → 400 naming allowedIps; 50 are accepted", async () => {
    const member = await make.member();
    const fiftyOne = Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`);
    const { error } = await operator(app, SET_IPS, { id: member.apiKey.id, ips: fiftyOne });
    expect(error?.message).toBe("Validation failed");
    expect(details(error)).toEqual([
      { path: ["allowedIps"], message: "At most 50 addresses or networks" },
    ]);
    expect((await keyRow(db.database, member.apiKey.id))?.allowedIps).toEqual([]);
    const fifty = await operator(app, SET_IPS, { id: member.apiKey.id, ips: fiftyOne.slice(1) });
    expect(fifty.data.setApiKeyAllowedIps.allowedIps).toHaveLength(50);
  });

  test("a grace period out of 0..604800 → 400 naming gracePeriod; the key is not rotated", async () => {
    const member = await make.member();
    for (const grace of [-1, 604_801]) {
      const { error } = await operator(app, ROTATE, { id: member.apiKey.id, grace });
      expect(error?.message, String(grace)).toBe("Validation failed");
      expect(error?.extensions.status).toBe(400);
      expect(details(error)).toEqual([
        {
          path: ["gracePeriod"],
          message: "Must be a whole number of seconds from 0 to 604800 (7 days)",
        },
      ]);
    }
    const fractional = await operator(app, ROTATE, { id: member.apiKey.id, grace: 1.5 });
    expect(fractional.data ?? null, "not a whole number: refused by the Seconds scalar").toBeNull();
    const row = await keyRow(db.database, member.apiKey.id);
    expect(row?.rotatedAt).toBeNull();
    expect((await send(app, "/api/v1/whoami", { key: member.key })).status).toBe(200);
  });

  test("a policy below 1 day (or above 3650) → 400 naming maxKeyLifetimeDays; the policy is unchanged", async () => {
    const member = await make.member();
    await operator(app, SET_POLICY, { org: member.organizationId, days: 90 });
    for (const days of [0, -5, 3651]) {
      const { error } = await operator(app, SET_POLICY, { org: member.organizationId, days });
      expect(error?.message, String(days)).toBe("Validation failed");
      expect(details(error)).toEqual([
        {
          path: ["maxKeyLifetimeDays"],
          message: "Must be a whole number of days from 1 to 3650, or null for no maximum",
        },
      ]);
    }
    const [org] = await db.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, member.organizationId));
    expect(org?.maxKeyLifetimeDays).toBe(90);
  });

  test("unknown or malformed ids are not found, for keys and organizations", async () => {
    for (const id of [crypto.randomUUID(), "nope"]) {
      expect((await operator(app, ROTATE, { id })).error?.message).toBe("API key not found");
      expect((await operator(app, SET_IPS, { id, ips: [] })).error?.message).toBe(
        "API key not found",
      );
      expect((await operator(app, SET_POLICY, { org: id, days: 30 })).error?.message).toBe(
        "Organization not found",
      );
    }
  });
}

describeEachDriver("key security: bad input", suite);
