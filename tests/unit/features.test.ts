import { afterAll, beforeAll, expect, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { FEATURES, OPENAPI_NAMES, WEBHOOK_EVENT_TYPES } from "../../src/features.ts";
import { buildTestApp, type FreshDatabase, freshDatabase, send } from "../helpers/harness.ts";

/**
 * The features' declarations (src/modules/<feature>/index.ts, listed in src/features.ts) are
 * what the app serves: a typo in one is caught here, not by a client generator.
 */
let fresh: FreshDatabase;
let app: OrgitApp;

beforeAll(async () => {
  fresh = await freshDatabase("pglite");
  app = await buildTestApp(fresh.database);
});
afterAll(async () => {
  await app.stop();
  await fresh.drop();
});

test("every declared operation id names a route of the OpenAPI document, and has it", async () => {
  const response = await send(app, "/swagger/json");
  expect(response.status).toBe(200);
  const spec = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  const served = new Map<string, unknown>();
  for (const [path, methods] of Object.entries(spec.paths))
    for (const [method, operation] of Object.entries(methods))
      served.set(
        `${method.toUpperCase()} ${path}`,
        (operation as { operationId: string }).operationId,
      );
  for (const [route, id] of Object.entries(OPENAPI_NAMES.operationIds))
    expect({ route, id: served.get(route) }, "declared in a feature's index.ts").toEqual({
      route,
      id,
    });
});

test("no two features declare the same name, domain service, event type or operation id", () => {
  const twice = (values: string[]) => values.filter((v, i) => values.indexOf(v) !== i);
  expect(twice(FEATURES.map((f) => f.name)), "feature names").toEqual([]);
  expect(twice(FEATURES.flatMap((f) => Object.keys(f.services ?? {}))), "services").toEqual([]);
  expect(twice([...WEBHOOK_EVENT_TYPES]), "webhook event types").toEqual([]);
  const ids = FEATURES.flatMap((f) => Object.values(f.openapi?.operationIds ?? {}));
  expect(twice(ids), "operation ids").toEqual([]);
});

test("each feature builds the domain services it declares, and the app exposes them", () => {
  for (const feature of FEATURES)
    for (const name of Object.keys(feature.services ?? {}))
      expect(
        app.services[name as keyof typeof app.services],
        `${feature.name}: ${name}`,
      ).toBeDefined();
});

test("every webhook event type reads <resource>.<what happened> and names a read scope", () => {
  for (const feature of FEATURES)
    for (const event of feature.events ?? []) {
      expect(event.type, feature.name).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(event.readScope, event.type).toMatch(/^[a-z_]+:read$/);
    }
  expect(WEBHOOK_EVENT_TYPES).toEqual([
    "alert.created",
    "alert.acknowledged",
    "alert.resolved",
    "alert.reopened",
    "ticket.created",
    "ticket.updated",
    "ticket.commented",
    "equipment.created",
    "equipment.updated",
    "equipment.retired",
    "project.created",
    "project.updated",
    "project.deleted",
    "webhook.disabled",
    "api_key.rotated",
    "api_key.expiring",
    "api_key.expired",
  ]);
});
