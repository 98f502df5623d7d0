import { afterAll, beforeAll, expect, test } from "bun:test";
import { BadRequestError, PermissionDeniedError } from "../src/index.ts";
import {
  collect,
  RELAXED_LIMITS,
  rejection,
  START_TIMEOUT_MS,
  startService,
  type TestOrg,
  type TestService,
  waitFor,
} from "./helpers.ts";

/** `orgit.auditLog` against a real service process: pages, cursors, the NDJSON export. */
let service: TestService;
let org: TestOrg;

beforeAll(async () => {
  service = await startService({ label: "client audit log", env: RELAXED_LIMITS });
  org = await service.newOrg();
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await service?.stop();
});

test("list, listAll and export read back the requests this client made", async () => {
  const client = org.client();
  const made: string[] = [];
  for (let i = 0; i < 3; i++) {
    await client.whoami();
    made.push(client.lastResponse?.requestId as string);
  }
  // the trail is written in batches about once a second
  await waitFor(async () => {
    const page = await client.auditLog.list({ route: "/api/v1/whoami" });
    return made.every((id) => page.data.some((e) => e.requestId === id));
  }, "the three whoami requests in the trail");

  const page = await client.auditLog.list({
    route: "/api/v1/whoami",
    statusClass: "2xx",
    limit: 2,
  });
  expect(page.data).toHaveLength(2);
  expect(page.nextCursor).toEqual(expect.any(String));
  expect(page.data[0]).toMatchObject({
    kind: "request",
    method: "GET",
    route: "/api/v1/whoami",
    status: 200,
  });

  const all = await collect(client.auditLog.listAll({ route: "/api/v1/whoami", limit: 1 }));
  expect(all.map((e) => e.requestId).sort()).toEqual([...made].sort());

  const now = Date.now();
  const exported = await collect(
    client.auditLog.export({ from: new Date(now - 3_600_000), to: new Date(now + 60_000) }),
  );
  const whoamis = exported.filter((e) => e.route === "/api/v1/whoami").map((e) => e.requestId);
  expect(whoamis, "oldest first").toEqual(made);
  expect(exported.some((e) => e.kind === "api_key.created")).toBe(true);
});

test("bad filters and missing rights are thrown as typed errors naming the field", async () => {
  const client = org.client();
  const bad = await rejection(client.auditLog.list({ statusClass: "20x" }));
  expect(bad).toBeInstanceOf(BadRequestError);
  expect((bad as BadRequestError).details?.map((d) => d.path.join("."))).toEqual(["statusClass"]);
  const range = await rejection(
    collect(client.auditLog.export({ from: "2026-05-02T00:00:00Z", to: "2026-05-01T00:00:00Z" })),
  );
  expect(range).toBeInstanceOf(BadRequestError);

  const narrow = await service.newOrg({ scopes: ["tickets:read"] });
  const refused = await rejection(narrow.client().auditLog.list());
  expect(refused).toBeInstanceOf(PermissionDeniedError);
  expect((refused as PermissionDeniedError).message).toContain("audit:read");
});
