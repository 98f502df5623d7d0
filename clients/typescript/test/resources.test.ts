import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GoneError, NotFoundError, Orgit, OrgitError, type ResponseMeta } from "../src/index.ts";
import {
  collect,
  RELAXED_LIMITS,
  rejection,
  START_TIMEOUT_MS,
  startService,
  type TestOrg,
  type TestService,
} from "./helpers.ts";

/**
 * Every resource of interfaces A and B against a real service process started with `--demo`
 * (an organization with units, groups, equipment, alerts, tickets and agent releases) plus
 * organizations of our own for the write paths.
 */
let service: TestService;
let org: TestOrg;
let demo: Orgit;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  service = await startService({ label: "client resources", env: RELAXED_LIMITS, demo: true });
  org = await service.newOrg();
  demo = service.client(service.demoKey);
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await service?.stop();
});

describe("identity", () => {
  test("whoami answers the key's organization, user and scopes", async () => {
    const me = await org.client().whoami();
    expect(me.organization).toEqual({ id: org.id, name: org.name });
    expect(me.user).toEqual({ id: org.userId, role: "admin" });
    expect(me.apiKey.scopes).toContain("tickets:write");
    expect(me.apiKey.expiresAt).toBeNull();
  });

  test("health answers ok, and every answer's meta carries request id, rate limit and quota", async () => {
    const seen: ResponseMeta[] = [];
    const client = org.client({ onResponse: (meta) => seen.push(meta) });
    expect(await client.health()).toEqual({ status: "ok" });
    const meta = client.lastResponse as ResponseMeta;
    expect(seen).toEqual([meta]);
    expect(meta.status).toBe(200);
    expect(meta.requestId).toBe(meta.headers.get("x-request-id") as string);
    expect(meta.requestId?.length).toBeGreaterThan(0);
    expect(meta.rateLimit?.limit).toBeGreaterThan(0);
    expect(typeof meta.rateLimit?.remaining).toBe("number");
    expect(typeof meta.rateLimit?.reset).toBe("number");
    expect(meta.rateLimit?.policy).toContain('"burst"');
    expect(meta.rateLimit?.raw).toMatch(/^"\w+";r=\d+;t=\d+$/);
    // a PRO organization: 100 000 a day; health reports the quota without using it
    expect(meta.quota?.limit).toBe(100_000);
    expect(typeof meta.quota?.used).toBe("number");
    expect(meta.quota?.remaining).toBe(100_000 - (meta.quota?.used as number));
    expect(meta.idempotentReplayed).toBe(false);
    expect(meta.method).toBe("GET");
    expect(meta.url).toBe(`${service.base}/api/v1/health`);
  });

  test("a trailing slash in baseUrl is fine", async () => {
    const client = new Orgit({ apiKey: org.secret, baseUrl: `${service.base}/` });
    expect(client.baseUrl).toBe(service.base);
    expect((await client.whoami()).organization.id).toBe(org.id);
  });
});

describe("interface A lists (demo organization)", () => {
  test("equipment, units, groups, users, agent releases, alerts and tickets answer typed pages", async () => {
    const equipment = await demo.equipment.list({ limit: 2 });
    expect(equipment.data).toHaveLength(2);
    expect(equipment.pagination).toEqual({ total: expect.any(Number), limit: 2, offset: 0 });
    expect(equipment.pagination.total).toBeGreaterThan(2);
    expect(equipment.data[0]?.id).toMatch(UUID);
    expect(equipment.data[0]?.createdAt).toMatch(ISO);
    const online = await demo.equipment.list({ status: "online" });
    expect(online.data.length).toBeGreaterThan(0);
    expect(online.data.every((e) => e.status === "online")).toBe(true);

    const units = await demo.equipmentUnits.list();
    expect(units.data.length).toBeGreaterThan(0);
    expect(Object.keys(units.data[0] ?? {}).sort()).toEqual([
      "createdAt",
      "id",
      "name",
      "parentId",
    ]);

    const groups = await demo.groups.list();
    expect(groups.data.length).toBeGreaterThan(0);
    expect(typeof groups.data[0]?.memberCount).toBe("number");

    const users = await demo.users.list();
    expect(users.data.map((u) => u.profile.firstName).sort()).toEqual(["Alice", "Bob"]);
    expect(users.data.every((u) => u.role === "admin" || u.role === "technician")).toBe(true);

    const releases = await demo.agentReleases.list({ platform: "windows", channel: "stable" });
    expect(releases.data.length).toBeGreaterThan(0);
    expect(releases.data.every((r) => r.platform === "windows" && r.channel === "stable")).toBe(
      true,
    );
    expect(releases.data[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const alerts = await demo.alerts.list({ status: "open" });
    expect(alerts.data.length).toBeGreaterThan(0);
    expect(alerts.data.every((a) => a.status === "open")).toBe(true);

    const tickets = await demo.tickets.list({ limit: 200 });
    expect(tickets.pagination.limit).toBe(200);
    expect(tickets.data.length).toBe(tickets.pagination.total);
  });

  test("listAll of every interface A list yields what one big page holds", async () => {
    const lists = [
      demo.equipment,
      demo.equipmentUnits,
      demo.groups,
      demo.agentReleases,
      demo.alerts,
      demo.tickets,
    ] as const;
    for (const list of lists) {
      const page = await list.list({ limit: 200 });
      // the demo fills every list; an empty one would make the comparison vacuous
      expect(page.data.length).toBeGreaterThan(0);
      const all = await collect<{ id: string }>(list.listAll({ limit: 2 }));
      expect(all.map((item) => item.id)).toEqual(page.data.map((item) => item.id));
    }
    const members = await collect(demo.users.listAll({ limit: 1 }));
    expect(members.map((m) => m.userId)).toEqual(
      (await demo.users.list()).data.map((m) => m.userId),
    );
  });
});

describe("pagination", () => {
  // An organization of its own with exactly 7 low-priority tickets, made before these tests,
  // so each test passes alone and in any order (other suites add tickets to `org`).
  let paged: TestOrg;
  beforeAll(async () => {
    paged = await service.newOrg();
    const client = paged.client();
    for (let i = 1; i <= 7; i++) {
      await client.tickets.create({
        title: `Pagination ticket ${i}`,
        description: "A ticket to page through.",
        priority: "low",
      });
    }
  });

  test("tickets: 7 tickets with limit 3 come once each, in order, in 3 requests", async () => {
    const client = paged.client();
    const first = await client.tickets.list({ limit: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.pagination).toEqual({ total: 7, limit: 3, offset: 0 });

    const requests: string[] = [];
    const counted = paged.client({ onResponse: (meta) => requests.push(meta.url) });
    const all = await collect(counted.tickets.listAll({ limit: 3 }));
    const titles = all.map((t) => t.title);
    // newest first, every ticket exactly once
    expect(titles).toEqual([7, 6, 5, 4, 3, 2, 1].map((i) => `Pagination ticket ${i}`));
    expect(requests).toEqual(
      [0, 3, 6].map((o) => `${service.base}/api/v1/tickets?limit=3&offset=${o}`),
    );
  });

  test("the iterator is lazy: stopping after the first item sends one request", async () => {
    let requests = 0;
    const seen: string[] = [];
    const client = paged.client({ onResponse: () => requests++ });
    for await (const ticket of client.tickets.listAll({ limit: 3 })) {
      seen.push(ticket.title);
      break;
    }
    // checked after the loop, so an empty list fails instead of skipping the assertion
    expect(seen).toEqual(["Pagination ticket 7"]);
    expect(requests).toBe(1);
  });

  test("listAll keeps the filters on every page", async () => {
    const low = await collect(paged.client().tickets.listAll({ priority: "low", limit: 2 }));
    expect(low).toHaveLength(7);
    const high = await collect(paged.client().tickets.listAll({ priority: "high", limit: 2 }));
    expect(high).toEqual([]);
  });

  test("projects (interface B): 7 projects with limit 3 come once each, in order, in 3 pages", async () => {
    const own = await service.newOrg();
    const client = own.client();
    for (let i = 1; i <= 7; i++) await client.projects.create({ name: `Paged project ${i}` });
    const first = await client.projects.list({ limit: 3 });
    expect(first.pagination).toEqual({ page: 1, limit: 3, total: 7 });
    expect(Object.keys(first.data[0] ?? {}).sort()).toEqual(["createdAt", "id", "name"]);

    const requests: string[] = [];
    const counted = own.client({ onResponse: (meta) => requests.push(meta.url) });
    const all = await collect(counted.projects.listAll({ limit: 3 }));
    expect(all.map((p) => p.name)).toEqual([7, 6, 5, 4, 3, 2, 1].map((i) => `Paged project ${i}`));
    expect(requests).toEqual(
      [1, 2, 3].map((p) => `${service.base}/api/projects?limit=3&page=${p}`),
    );
  });
});

describe("tickets", () => {
  test("create answers the seed's snake_case ticket", async () => {
    const client = org.client();
    const ticket = await client.tickets.create({
      title: "Printer jams",
      description: "The printer on floor 2 jams on every page.",
      priority: "high",
    });
    expect(Object.keys(ticket).sort()).toEqual(
      ["created_at", "created_by", "equipment_id", "id", "priority", "status", "title"].sort(),
    );
    expect(ticket).toMatchObject({
      title: "Printer jams",
      status: "open",
      priority: "high",
      equipment_id: null,
      created_by: org.userId,
    });
    expect(ticket.id).toMatch(UUID);
    expect(ticket.created_at).toMatch(ISO);
    expect(client.lastResponse?.status).toBe(201);
    expect(client.lastResponse?.idempotentReplayed).toBe(false);
  });

  test("the same Idempotency-Key twice answers the first ticket again, marked replayed", async () => {
    const client = org.client();
    const input = { title: "Idempotent ticket", description: "Sent twice, stored once." };
    const key = crypto.randomUUID();
    const first = await client.tickets.create(input, { idempotencyKey: key });
    expect(client.lastResponse?.idempotentReplayed).toBe(false);
    const again = await client.tickets.create(input, { idempotencyKey: key });
    expect(again).toEqual(first);
    expect(client.lastResponse?.idempotentReplayed).toBe(true);
    expect(client.lastResponse?.status).toBe(201);
    const stored = await collect(client.tickets.listAll());
    expect(stored.filter((t) => t.title === "Idempotent ticket")).toHaveLength(1);
  });

  test("a ticket may name equipment of the organization (equipmentId in, equipment_id out)", async () => {
    const client = org.client();
    const bulk = await client.equipment.bulkCreate([{ name: "ticketed-pc", type: "workstation" }]);
    const equipmentId = bulk.items[0]?.id as string;
    const ticket = await client.tickets.create({
      title: "Broken keyboard",
      description: "Several keys do not work.",
      equipmentId,
    });
    expect(ticket.equipment_id).toBe(equipmentId);
  });
});

describe("equipment and install links", () => {
  test("bulk-create creates the valid items, lists the invalid one, and the install link works", async () => {
    const client = org.client();
    const result = await client.equipment.bulkCreate([
      { name: "ws-001", type: "workstation", platform: "windows" },
      { name: "toaster-1", type: "toaster" },
      { name: "srv-001", type: "server", platform: "linux", location: "Rack 4" },
    ]);
    expect(client.lastResponse?.status).toBe(201);
    expect(result).toMatchObject({ requested: 3, created: 2, failed: 1 });
    expect(result.items.map((i) => i.name)).toEqual(["ws-001", "srv-001"]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ index: 1, name: "toaster-1" });
    expect(result.errors[0]?.error).toStartWith("type:");

    const listed = await collect(client.equipment.listAll({ status: "pending" }));
    expect(listed.map((e) => e.name)).toEqual(expect.arrayContaining(["ws-001", "srv-001"]));

    const item = result.items[0] as (typeof result.items)[number];
    expect(item.installUrl).toStartWith(`${service.base}/install/`);
    const keyless = service.client(undefined);
    const install = await keyless.install.get(item.installUrl);
    expect(install).toMatchObject({
      equipmentId: item.id,
      equipmentName: "ws-001",
      platform: "windows",
      tokenKind: "bulk",
    });
    expect(install.expiresAt).toMatch(ISO);
    // the demo seeds a stable windows release: the newest one is offered
    expect(install.agentRelease).toMatchObject({ platform: "windows", channel: "stable" });
    // the bare token works as well
    const token = item.installUrl.split("/install/")[1] as string;
    expect((await keyless.install.get(token)).equipmentId).toBe(item.id);
  });

  test("an unknown install token is a NotFoundError", async () => {
    const error = await rejection(service.client(undefined).install.get("no-such-token"));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
  });

  test("a used invitation link answers 410: a GoneError with the status", async () => {
    const client = org.client();
    const result = await client.equipment.bulkCreate([{ name: "laptop-inv", type: "laptop" }], {
      tokenKind: "invitation",
    });
    const url = result.items[0]?.installUrl as string;
    expect((await client.install.get(url)).tokenKind).toBe("invitation");
    const error = (await rejection(client.install.get(url))) as OrgitError;
    expect(error).toBeInstanceOf(OrgitError);
    expect(error.constructor).toBe(GoneError);
    expect(error.status).toBe(410);
  });
});

describe("alerts", () => {
  test("ingest (no key, the caller's IP) then list; a resend is a duplicate with the same id", async () => {
    const externalId = crypto.randomUUID();
    const alert = {
      source: "client-test",
      externalId,
      title: "Disk usage above 95%",
      severity: "critical" as const,
    };
    const keyless = service.client(undefined);
    const result = await keyless.alerts.ingest({ alerts: [alert] });
    expect(keyless.lastResponse?.status).toBe(202);
    expect(result).toMatchObject({ received: 1, created: 1, duplicates: 0 });
    const id = result.ids[0] as string;

    const listed = await collect(demo.alerts.listAll({ severity: "critical", status: "open" }));
    expect(listed.find((a) => a.id === id)).toMatchObject({
      source: "client-test",
      externalId,
      title: "Disk usage above 95%",
      severity: "critical",
      status: "open",
    });

    const again = await keyless.alerts.ingest(alert);
    expect(again).toEqual({ received: 1, created: 0, duplicates: 1, ids: [id] });
  });
});

describe("projects", () => {
  test("create, get, list, update, delete", async () => {
    const client = org.client();
    const created = await client.projects.create({ name: "Website relaunch", description: "Q3" });
    expect(client.lastResponse?.status).toBe(201);
    expect(created).toMatchObject({ name: "Website relaunch", description: "Q3" });
    expect(created.id).toMatch(UUID);

    const fetched = await client.projects.get(created.id);
    expect(fetched).toEqual({ ...created, updatedAt: expect.stringMatching(ISO) });
    // interface B: rate-limit headers, no quota
    expect(client.lastResponse?.rateLimit?.policy).toContain('"org"');
    expect(client.lastResponse?.quota).toBeNull();

    const listed = await collect(client.projects.listAll());
    expect(listed.map((p) => p.id)).toContain(created.id);

    const updated = await client.projects.update(created.id, { name: "Website relaunch 2" });
    expect(updated).toMatchObject({
      id: created.id,
      name: "Website relaunch 2",
      description: "Q3",
    });

    expect(await client.projects.delete(created.id)).toEqual({
      success: true,
      message: "Project deleted",
    });
    const gone = await rejection(client.projects.get(created.id));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).error).toBe("Project not found");
  });

  test("the same Idempotency-Key replays the created project", async () => {
    const client = org.client();
    const key = `project-${crypto.randomUUID()}`;
    const first = await client.projects.create({ name: "Once" }, { idempotencyKey: key });
    const again = await client.projects.create({ name: "Once" }, { idempotencyKey: key });
    expect(again).toEqual(first);
    expect(client.lastResponse?.idempotentReplayed).toBe(true);
  });
});
