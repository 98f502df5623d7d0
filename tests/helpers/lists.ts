import { expect, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { type Factories, graphql, send } from "./harness.ts";

/** Helpers shared by the interface A list suites (units, groups, users, releases, alerts). */

export async function getJson(app: OrgitApp, path: string, key?: string) {
  const response = await send(app, path, { key });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  return { status: response.status, body: (await response.json()) as any, response };
}

/** `limit` 0/201, `offset` -1 and non-numbers → 400 naming the field; 1 and 200 are fine. */
export async function expectPageBounds(app: OrgitApp, path: string, key: string) {
  const join = path.includes("?") ? "&" : "?";
  for (const [query, field] of [
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["limit=-5", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["offset=-1", "offset"],
    ["offset=x", "offset"],
  ] as const) {
    const { status, body } = await getJson(app, `${path}${join}${query}`, key);
    expect({ query, status }).toEqual({ query, status: 400 });
    expect(body.error).toBe("Validation failed");
    expect(body.details.map((d: { path: string[] }) => d.path)).toContainEqual([field]);
  }
  for (const limit of [1, 200]) {
    const { status, body } = await getJson(app, `${path}${join}limit=${limit}`, key);
    expect({ limit, status }).toEqual({ limit, status: 200 });
    expect(body.pagination.limit).toBe(limit);
    expect(body.data.length).toBeLessThanOrEqual(limit);
  }
  const { body } = await getJson(app, path, key);
  expect(body.pagination).toMatchObject({ limit: 50, offset: 0 });
}

/** Walks a list two items at a time and checks it equals the whole list, in order. */
export async function expectStablePages(app: OrgitApp, path: string, key: string) {
  const join = path.includes("?") ? "&" : "?";
  const whole = (await getJson(app, `${path}${join}limit=200`, key)).body;
  const ids: string[] = [];
  for (let offset = 0; offset < whole.pagination.total; offset += 2) {
    const page = (await getJson(app, `${path}${join}limit=2&offset=${offset}`, key)).body;
    expect(page.pagination).toEqual({ total: whole.pagination.total, limit: 2, offset });
    ids.push(...page.data.map((item: { id?: string; userId?: string }) => item.id ?? item.userId));
  }
  expect(ids).toEqual(
    whole.data.map((item: { id?: string; userId?: string }) => item.id ?? item.userId),
  );
  expect(new Set(ids).size).toBe(ids.length);
  const past = (await getJson(app, `${path}${join}offset=${whole.pagination.total + 5}`, key)).body;
  expect(past.data).toEqual([]);
  expect(past.pagination.total).toBe(whole.pagination.total);
}

/** A GraphQL call that must fail: its first error's message, code and details. */
export async function graphqlError(app: OrgitApp, key: string | undefined, query: string) {
  const { response, json } = await graphql(app, key, query);
  if (response.status === 401) return { status: 401, message: json.error };
  expect(json.errors?.length ?? 0).toBeGreaterThan(0);
  const error = json.errors?.[0];
  return {
    status: error.extensions?.status as number,
    message: error.message as string,
    details: error.extensions?.details,
    data: json.data,
  };
}

/**
 * The three access tests every scoped, permission-guarded list shares: no key → 401 and FREE
 * plan → 403; a key without the scope → 403; an owner without the permission → 403 (REST and
 * GraphQL). Registers them in the calling suite.
 */
export function listAccessTests(
  ctx: { app: OrgitApp; make: Factories },
  list: {
    path: string;
    query: string;
    scope: string;
    permission: string;
    /** a scope the key holds instead, and a role (TECHNICIAN seat) that lacks the permission */
    otherScope: string;
    otherRole: { name: string; permissions: string[] };
  },
) {
  const { app, make } = ctx;
  const { path, query, scope, permission } = list;

  test("no key → 401; FREE plan → 403", async () => {
    expect(await getJson(app, path)).toMatchObject({
      status: 401,
      body: { error: "Missing API key" },
    });
    const free = await make.member({ plan: "FREE", scopes: [scope] });
    expect(await getJson(app, path, free.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
  });

  test(`a key without ${scope} → 403 Missing scope: ${scope} (REST and GraphQL)`, async () => {
    const { key } = await make.member({ scopes: [list.otherScope] });
    expect(await getJson(app, path, key)).toMatchObject({
      status: 403,
      body: { error: `Missing scope: ${scope}` },
    });
    expect(await graphqlError(app, key, query)).toMatchObject({
      status: 403,
      message: `Missing scope: ${scope}`,
    });
  });

  test(`an owner without ${permission} → 403 Missing permission: ${permission}`, async () => {
    const org = await make.organization();
    await make.role(org.id, list.otherRole.name, "TECHNICIAN", list.otherRole.permissions);
    const { key } = await make.member({
      organizationId: org.id,
      role: list.otherRole.name,
      scopes: [scope],
    });
    expect(await getJson(app, path, key)).toMatchObject({
      status: 403,
      body: { error: `Missing permission: ${permission}` },
    });
    expect(await graphqlError(app, key, query)).toMatchObject({
      status: 403,
      message: `Missing permission: ${permission}`,
    });
  });
}
