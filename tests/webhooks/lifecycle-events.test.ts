import { afterAll, expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";

/**
 * One delivery per ticket, alert, equipment and webhook event type (docs/webhooks.md): a real
 * change through the REST routes → outbox → dispatcher → a receiver on 127.0.0.1 that verifies
 * each Standard Webhooks signature. The record in `data` is what the REST GET answers.
 */
const FAST = { backoffMs: [30, 30, 30], jitter: 0, pollMs: 25, timeoutMs: 1000 };
const ENV = { ALLOW_PRIVATE_WEBHOOK_URLS: "true" };
const SCOPES = [
  "tickets:read",
  "tickets:write",
  "alerts:read",
  "alerts:write",
  "equipment:read",
  "equipment:write",
  "webhooks:read",
  "webhooks:write",
];
const TICKET = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver, { env: ENV, webhooks: FAST });
  const receivers: ReturnType<typeof startReceiver>[] = [];
  afterAll(() => {
    for (const r of receivers) r.stop();
  });
  let peer = 10;

  /** an organization with an all-scopes key and a receiver subscribed to `events` */
  async function subscribed(events: string[], script?: number[]) {
    const member = await make.member({ scopes: SCOPES });
    const hook = await subscribe(member.key, events, script);
    return { ...member, ...hook };
  }

  async function subscribe(key: string, events: string[], script?: number[]) {
    let secret: string | undefined;
    const receiver = startReceiver(() => secret, { script });
    receivers.push(receiver);
    const res = await send(app, "/api/webhooks", { key, body: { url: receiver.url, events } });
    expect(res.status, await res.clone().text()).toBe(201);
    const hook = await res.json();
    secret = hook.secret;
    return { receiver, hook };
  }

  async function received(receiver: ReturnType<typeof startReceiver>, count: number) {
    await eventually(() => receiver.received.length >= count, `${count} deliveries`);
    expect(receiver.rejected, "every signature verifies").toEqual([]);
    return receiver.received.map((r) => r.body);
  }

  const json = async (response: Response) => {
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return response.json();
  };
  const get = async (key: string, path: string) => json(await send(app, path, { key }));

  async function ticket(key: string) {
    return json(await send(app, "/api/v1/tickets", { key, body: TICKET }));
  }

  /** an alert ingested from a loopback address of the organization's own */
  async function alert(organizationId: string) {
    const ip = `127.0.9.${peer++}`;
    await app.services.operator.addIngestSource({ organizationId, cidr: `${ip}/32` });
    const res = await send(app, "/api/v1/alerts/ingest", {
      method: "POST",
      peer: ip,
      body: { source: "prometheus", externalId: `disk-${ip}`, title: "Disk full" },
    });
    return (await json(res)).ids[0] as string;
  }

  async function device(key: string) {
    const res = await send(app, "/api/v1/equipments/bulk-create", {
      key,
      body: { items: [{ name: "ws-1", type: "workstation" }] },
    });
    return (await json(res)).items[0].id as string;
  }

  test("ticket.created carries the ticket as GET /tickets/{id} answers it", async () => {
    const { key, receiver } = await subscribed(["ticket.created"]);
    const created = await ticket(key);
    const [event] = await received(receiver, 1);
    expect(event).toEqual({
      type: "ticket.created",
      timestamp: expect.any(String),
      data: { ticket: await get(key, `/api/v1/tickets/${created.id}`) },
    });
  });

  test("ticket.updated carries the new ticket and each changed field's from and to", async () => {
    const { key, receiver, user } = await subscribed(["ticket.updated"]);
    const { id } = await ticket(key);
    await json(
      await send(app, `/api/v1/tickets/${id}`, {
        key,
        method: "PATCH",
        body: { status: "in_progress", assigneeId: user.id, title: TICKET.title },
      }),
    );
    const [event] = await received(receiver, 1);
    expect(event.type).toBe("ticket.updated");
    expect(event.data).toEqual({
      ticket: await get(key, `/api/v1/tickets/${id}`),
      changes: {
        status: { from: "open", to: "in_progress" },
        assignee_id: { from: null, to: user.id },
      },
    });
  });

  test("ticket.commented carries the ticket and the comment", async () => {
    const { key, receiver } = await subscribed(["ticket.commented"]);
    const { id } = await ticket(key);
    const comment = await json(
      await send(app, `/api/v1/tickets/${id}/comments`, { key, body: { body: "On it." } }),
    );
    const [event] = await received(receiver, 1);
    expect(event).toMatchObject({
      type: "ticket.commented",
      data: { ticket: await get(key, `/api/v1/tickets/${id}`), comment },
    });
  });

  test("alert.created once per new alert, not for a duplicate", async () => {
    const { key, receiver, organizationId, hook } = await subscribed(["alert.created"]);
    const ip = `127.0.9.${peer++}`;
    await app.services.operator.addIngestSource({ organizationId, cidr: `${ip}/32` });
    const batch = {
      alerts: [
        { source: "zabbix", externalId: "a", title: "CPU hot" },
        { source: "zabbix", externalId: "a", title: "CPU hot again" },
        { source: "zabbix", externalId: "b", title: "Fan stopped" },
      ],
    };
    const result = await json(
      await send(app, "/api/v1/alerts/ingest", { method: "POST", peer: ip, body: batch }),
    );
    // the same alert again later is a duplicate too
    await json(
      await send(app, "/api/v1/alerts/ingest", { method: "POST", peer: ip, body: batch.alerts[0] }),
    );
    // written with the ingest, so the count is final once both answers are in
    const log = await get(key, `/api/webhooks/${hook.id}/deliveries`);
    expect(log.pagination.total, "one event per new alert").toBe(2);
    const events = await received(receiver, 2);
    expect(events.map((e) => e.data.alert.id).sort()).toEqual(
      [result.ids[0], result.ids[2]].sort(),
    );
    expect(events[0].data.alert).toEqual(
      await get(key, `/api/v1/alerts/${events[0].data.alert.id}`),
    );
  });

  for (const [move, type, status] of [
    ["acknowledge", "alert.acknowledged", "acknowledged"],
    ["resolve", "alert.resolved", "resolved"],
  ] as const) {
    test(`${type} carries the alert with who, when and the note`, async () => {
      const { key, receiver, organizationId, user } = await subscribed([type]);
      const id = await alert(organizationId);
      await json(
        await send(app, `/api/v1/alerts/${id}/${move}`, { key, body: { note: "Looking" } }),
      );
      const [event] = await received(receiver, 1);
      expect(event.type).toBe(type);
      expect(event.data).toEqual({ alert: await get(key, `/api/v1/alerts/${id}`) });
      expect(event.data.alert).toMatchObject({ status, version: 2 });
      expect(JSON.stringify(event.data.alert)).toContain(user.id);
    });
  }

  test("alert.reopened carries the reopened alert", async () => {
    const { key, receiver, organizationId } = await subscribed(["alert.reopened"]);
    const id = await alert(organizationId);
    await json(await send(app, `/api/v1/alerts/${id}/resolve`, { key, body: {} }));
    await json(await send(app, `/api/v1/alerts/${id}/reopen`, { key, method: "POST" }));
    const [event] = await received(receiver, 1);
    expect(event).toMatchObject({ type: "alert.reopened" });
    expect(event.data).toEqual({ alert: await get(key, `/api/v1/alerts/${id}`) });
    expect(event.data.alert).toMatchObject({ status: "open", resolvedAt: null, version: 3 });
  });

  test("equipment.created once per record of a bulk creation", async () => {
    const { key, receiver } = await subscribed(["equipment.created"]);
    const result = await json(
      await send(app, "/api/v1/equipments/bulk-create", {
        key,
        body: {
          items: [
            { name: "ws-1", type: "workstation" },
            { name: "ws-2", type: "laptop" },
          ],
        },
      }),
    );
    const events = await received(receiver, 2);
    const ids = result.items.map((item: { id: string }) => item.id);
    expect(events.map((e) => e.data.equipment.id).sort()).toEqual([...ids].sort());
    expect(events.find((e) => e.data.equipment.id === ids[0]).data.equipment).toEqual(
      await get(key, `/api/v1/equipments/${ids[0]}`),
    );
  });

  test("equipment.updated carries the record and its changes; equipment.retired the retired record", async () => {
    const { key, receiver } = await subscribed(["equipment.updated", "equipment.retired"]);
    const id = await device(key);
    await json(
      await send(app, `/api/v1/equipments/${id}`, {
        key,
        method: "PATCH",
        body: { location: "Floor 3", status: "online" },
      }),
    );
    const [updated] = await received(receiver, 1);
    expect(updated.type).toBe("equipment.updated");
    expect(updated.data.changes).toEqual({
      location: { from: null, to: "Floor 3" },
      status: { from: "pending", to: "online" },
    });
    await json(await send(app, `/api/v1/equipments/${id}/retire`, { key, method: "POST" }));
    const events = await received(receiver, 2);
    const retired = events.find((e) => e.type === "equipment.retired");
    expect(retired.data).toEqual({ equipment: await get(key, `/api/v1/equipments/${id}`) });
    expect(retired.data.equipment).toMatchObject({ status: "retired", version: 3 });
  });

  test("webhook.disabled reaches the organization's other subscriptions when one answers 410", async () => {
    const { key, receiver: watcher } = await subscribed(["webhook.disabled"]);
    const { receiver: gone, hook } = await subscribe(key, ["ticket.created"], [410]);
    await ticket(key);
    await eventually(() => gone.received.length >= 1, "the 410 answer");
    const [event] = await received(watcher, 1);
    expect(event).toEqual({
      type: "webhook.disabled",
      timestamp: expect.any(String),
      data: {
        webhookId: hook.id,
        url: hook.url,
        reason: "Receiver answered 410 Gone",
        failingSince: null,
      },
    });
    const stored = await get(key, `/api/webhooks/${hook.id}`);
    expect(stored.active).toBe(false);
  });
}

describeEachDriver("lifecycle webhook events", suite);
