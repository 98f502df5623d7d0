import { expect, setDefaultTimeout, test } from "bun:test";
import { MAX_ACTIVE_KEYS_PER_MEMBER } from "../../src/modules/operator/api-keys.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { operator, ROTATE } from "./ops.ts";

setDefaultTimeout(60_000);

/**
 * The cap of 50 active keys per member counts keys, not secrets (docs/decisions.md §23): a
 * rotation replaces a key, so it is never refused by the cap, and its old secret, in its grace
 * or after, takes no place.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("a member at the cap rotates (twice, during the grace too); the old secrets take no place", async () => {
    const member = await make.member({ expiresIn: "DAYS_30" });
    const { organizationId, user } = member;
    const create = (name: string) =>
      app.services.apiKeys.createApiKey({
        organizationId,
        userId: user.id,
        name,
        scopes: ["tickets:read"],
        expiresIn: "DAYS_30",
      });
    const others: string[] = [];
    for (let i = 1; i < MAX_ACTIVE_KEYS_PER_MEMBER; i++)
      others.push((await create(`k${i}`)).apiKey.id);
    await expect(create("one too many"), "at the cap").rejects.toThrow(
      "You can have at most 50 active API keys in an organization; revoke one first",
    );

    const first = await operator(app, ROTATE, { id: member.apiKey.id, grace: 3600 });
    expect(first.error, "a rotation at the cap").toBeUndefined();
    const second = await operator(app, ROTATE, {
      id: first.data.rotateApiKey.apiKey.id,
      grace: 3600,
    });
    expect(second.error, "again, during the first one's grace").toBeUndefined();
    const rows = await app.services.database.db.query.apiKeys.findMany();
    const mine = rows.filter((k) => k.userId === user.id && k.organizationId === organizationId);
    expect(
      mine.filter((k) => k.rotatedAt !== null),
      "two old secrets",
    ).toHaveLength(2);
    expect(mine.filter((k) => k.rotatedAt === null && k.revokedAt === null)).toHaveLength(50);
    await expect(create("still one too many"), "rotations added no key").rejects.toThrow(
      "revoke one first",
    );

    await app.services.apiKeys.revokeApiKey(others[0] as string);
    const made = await create("in the freed place");
    expect(made.apiKey.name, "one revoked frees one place, whatever the old secrets").toBe(
      "in the freed place",
    );
    await expect(create("and no more")).rejects.toThrow("revoke one first");
  });
}

describeEachDriver("the key cap and rotation", suite);
