import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConflictError, NotFoundError, type Orgit, OrgitError } from "../src/index.ts";
import {
  RELAXED_LIMITS,
  rejection,
  START_TIMEOUT_MS,
  startService,
  type TestOrg,
  type TestService,
} from "./helpers.ts";

/**
 * The ticket, alert and equipment changes (the OpenAPI tag `extensions`) through the client,
 * against a real service process: typed records, If-Match, and the errors an integrator meets.
 */
let service: TestService;
let org: TestOrg;
let client: Orgit;

beforeAll(async () => {
  service = await startService({ label: "client lifecycle", env: RELAXED_LIMITS, demo: true });
  org = await service.newOrg();
  client = org.client();
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await service?.stop();
});

describe("tickets", () => {
  test("get, update with ifMatch, a stale ifMatch is a 412 OrgitError, comments", async () => {
    const created = await client.tickets.create({
      title: "Laptop will not boot",
      description: "Black screen after the vendor logo.",
    });
    const ticket = await client.tickets.get(created.id);
    expect(ticket).toMatchObject({ id: created.id, version: 1, assignee_id: null });
    expect(client.lastResponse?.headers.get("etag")).toBe('"1"');
    const updated = await client.tickets.update(
      created.id,
      { status: "in_progress", assigneeId: org.userId },
      { ifMatch: ticket.version },
    );
    expect(updated).toMatchObject({ status: "in_progress", assignee_id: org.userId, version: 2 });
    const stale = await rejection(
      client.tickets.update(created.id, { priority: "low" }, { ifMatch: 1 }),
    );
    expect(stale).toBeInstanceOf(OrgitError);
    expect(stale).toMatchObject({ status: 412, error: "Version mismatch" });
    const closed = await client.tickets.update(created.id, { status: "closed" });
    expect(closed.status).toBe("closed");
    const reopened = await rejection(client.tickets.update(created.id, { status: "open" }));
    expect(reopened).toBeInstanceOf(ConflictError);
    expect(reopened).toMatchObject({ error: "Invalid status transition: closed → open" });

    const comment = await client.tickets.addComment(created.id, "Replaced the SSD.");
    expect(comment).toMatchObject({ ticketId: created.id, authorId: org.userId });
    const page = await client.tickets.listComments(created.id, { limit: 10 });
    expect(page.data).toEqual([comment]);
    const second = await client.tickets.addComment(created.id, "Closed the case.");
    const walked = [];
    for await (const each of client.tickets.paginateComments(created.id, { limit: 1 })) {
      walked.push(each);
    }
    expect(walked, "every comment by cursor pages, newest first").toEqual([second, comment]);
    expect(await rejection(client.tickets.get(crypto.randomUUID()))).toBeInstanceOf(NotFoundError);
  });
});

describe("alerts", () => {
  test("get, acknowledge with a note, resolve, reopen", async () => {
    const demo = service.client(service.demoKey);
    const ingested = await service.client(undefined).alerts.ingest({
      source: "client-lifecycle",
      externalId: crypto.randomUUID(),
      title: "Backup job failed",
    });
    const id = ingested.ids[0] as string;
    expect((await demo.alerts.get(id)).status).toBe("open");
    const acknowledged = await demo.alerts.acknowledge(id, { note: "Looking into it" });
    expect(acknowledged).toMatchObject({
      status: "acknowledged",
      acknowledgementNote: "Looking into it",
    });
    const resolved = await demo.alerts.resolve(id, { ifMatch: acknowledged.version });
    expect(resolved).toMatchObject({ status: "resolved", version: acknowledged.version + 1 });
    expect((await demo.alerts.reopen(id)).status).toBe("open");
    const twice = await rejection(demo.alerts.reopen(id));
    expect(twice).toMatchObject({ status: 409, error: "Invalid status transition: open → open" });
  });
});

describe("equipment", () => {
  test("get, update, retire; a retired record refuses changes", async () => {
    const { items } = await client.equipment.bulkCreate([{ name: "pc-1", type: "workstation" }]);
    const id = items[0]?.id as string;
    const record = await client.equipment.get(id);
    expect(record).toMatchObject({ id, status: "pending", retiredAt: null, version: 1 });
    const updated = await client.equipment.update(id, { location: "Floor 4" }, { ifMatch: 1 });
    expect(updated).toMatchObject({ location: "Floor 4", version: 2 });
    const retired = await client.equipment.retire(id);
    expect(retired.status).toBe("retired");
    const refused = await rejection(client.equipment.update(id, { name: "pc-2" }));
    expect(refused).toMatchObject({ status: 409, error: "Equipment is retired" });
  });
});
