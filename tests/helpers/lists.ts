import { expect } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { graphql, send } from "./harness.ts";

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
