import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { CREATE_KEY } from "../helpers/operator-ops.ts";
import { ORG_KEYS, operator, ROTATE, SET_POLICY } from "./ops.ts";

const DAY = 86_400_000;

/** The organization's maximum key lifetime (docs/security.md), on every path that makes a key. */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, { now: clock.now });

  async function orgWithPolicy(days: number | null) {
    const member = await make.member({ expiresIn: "NEVER" });
    const { data } = await operator(app, SET_POLICY, { org: member.organizationId, days });
    expect(data.setKeyLifetimePolicy).toEqual({
      organizationId: member.organizationId,
      maxKeyLifetimeDays: days,
    });
    return member;
  }
  const create = (member: { organizationId: string; user: { id: string } }, over: object) =>
    graphql(app, TEST_ADMIN_TOKEN, CREATE_KEY, {
      input: {
        organizationId: member.organizationId,
        userId: member.user.id,
        name: "k",
        scopes: ["tickets:read"],
        ...over,
      },
    });

  test("with a 90-day maximum: NEVER, 6 months, 1 year and a later instant are refused, 30 and 90 days made", async () => {
    const member = await orgWithPolicy(90);
    for (const over of [
      { expiresIn: "NEVER" },
      { expiresIn: "MONTHS_6" },
      { expiresIn: "YEAR_1" },
      { expiresAt: new Date(clock.now().getTime() + 91 * DAY).toISOString() },
    ]) {
      const { json } = await create(member, over);
      expect(json.errors?.[0]?.message, JSON.stringify(over)).toBe("Validation failed");
      expect(json.errors?.[0]?.extensions.status).toBe(400);
      const field = "expiresIn" in over ? "expiresIn" : "expiresAt";
      expect(json.errors?.[0]?.extensions.details).toEqual([
        { path: ["input", field], message: "The organization allows API keys of at most 90 days" },
      ]);
    }
    for (const over of [{ expiresIn: "DAYS_30" }, { expiresIn: "DAYS_90" }]) {
      const { json } = await create(member, over);
      expect(json.errors, JSON.stringify(over)).toBeUndefined();
    }
  });

  test("existing longer keys are flagged, not revoked; lifting the policy clears the flag", async () => {
    const member = await orgWithPolicy(30);
    const read = async () =>
      (await operator(app, ORG_KEYS, { id: member.organizationId })).data.organization;
    const org = await read();
    expect(org.maxKeyLifetimeDays).toBe(30);
    const old = org.apiKeys.find((k: { id: string }) => k.id === member.apiKey.id);
    expect(old).toMatchObject({ status: "ACTIVE", exceedsLifetimePolicy: true });
    expect((await send(app, "/api/v1/whoami", { key: member.key })).status, "still works").toBe(
      200,
    );
    await operator(app, SET_POLICY, { org: member.organizationId, days: null });
    const after = (await read()).apiKeys.find((k: { id: string }) => k.id === member.apiKey.id);
    expect(after.exceedsLifetimePolicy).toBe(false);
  });

  test("updateOrganization sets the same policy; below 1 day is 400 naming the field", async () => {
    const member = await orgWithPolicy(null);
    const UPDATE = `mutation($id: ID!, $input: UpdateOrganizationInput!) {
      updateOrganization(id: $id, input: $input) { id maxKeyLifetimeDays }
    }`;
    const set = await operator(app, UPDATE, {
      id: member.organizationId,
      input: { maxKeyLifetimeDays: 45 },
    });
    expect(set.data.updateOrganization.maxKeyLifetimeDays).toBe(45);
    expect(await app.services.keySecurity.maxLifetimeDays(member.organizationId)).toBe(45);
    const below = await operator(app, UPDATE, {
      id: member.organizationId,
      input: { maxKeyLifetimeDays: 0 },
    });
    expect(below.error?.message).toBe("Validation failed");
    expect(below.error?.extensions.details).toEqual([
      {
        path: ["input", "maxKeyLifetimeDays"],
        message: "Must be a whole number of days from 1 to 3650, or null for no maximum",
      },
    ]);
    expect(await app.services.keySecurity.maxLifetimeDays(member.organizationId)).toBe(45);
    const unrelated = await operator(app, UPDATE, {
      id: member.organizationId,
      input: { name: "Renamed" },
    });
    expect(unrelated.data.updateOrganization.maxKeyLifetimeDays, "untouched when not given").toBe(
      45,
    );
  });

  test("rotating a key longer than the maximum is refused; a key within it rotates", async () => {
    const member = await orgWithPolicy(60);
    const refused = await operator(app, ROTATE, { id: member.apiKey.id });
    expect(refused.error?.message).toBe("Validation failed");
    expect(refused.error?.extensions.details).toEqual([
      { path: ["id"], message: "The organization allows API keys of at most 60 days" },
    ]);
    const short = await create(member, { expiresIn: "DAYS_30" });
    const rotated = await operator(app, ROTATE, { id: short.json.data.createApiKey.apiKey.id });
    expect(rotated.error).toBeUndefined();
  });
}

describeEachDriver("maximum API key lifetime", suite);
