import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { liveStreamSlots } from "../../src/db/schema/index.ts";
import { DatabaseStreamSlots } from "../../src/outbox/live-slots.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { call, VALID_TICKET } from "../helpers/lifecycle.ts";
import { sseEvents } from "../helpers/sse.ts";
import { eventually } from "../helpers/wait.ts";

const SCOPES = [
  "tickets:read",
  "tickets:write",
  "alerts:read",
  "equipment:read",
  "equipment:write",
];

/**
 * GraphQL subscriptions over Server-Sent Events at /graphql, in process and browser-free
 * (docs/api.md): scoped and isolated like queries, at most 10 open streams per key, and a
 * stream that goes away gives its slot back.
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const subscribe = (key: string, query: string, variables?: Record<string, unknown>) =>
    send(app, "/graphql", {
      key,
      method: "POST",
      headers: { accept: "text/event-stream" },
      body: { query, variables },
    });

  const TICKETS = `subscription($id: ID, $types: [String!]) {
    ticketEvents(ticketId: $id, types: $types) { type ticket { id title version } changes { field from to } }
  }`;

  test("ticketEvents streams an update made over REST, with the changed fields", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const ticket = await call(app, "/api/v1/tickets", { key, body: VALID_TICKET });
    // Postgres may deliver the creation's notification after this stream starts: updates only
    const response = await subscribe(key, TICKETS, {
      id: ticket.body.id,
      types: ["ticket.updated"],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const stream = sseEvents(response);
    const patched = await call(app, `/api/v1/tickets/${ticket.body.id}`, {
      key,
      method: "PATCH",
      body: { title: "Printer fixed?" },
    });
    expect(patched.status).toBe(200);
    const event = await stream.next();
    expect(event.data.ticketEvents).toEqual({
      type: "ticket.updated",
      ticket: { id: ticket.body.id, title: "Printer fixed?", version: 2 },
      changes: [{ field: "title", from: VALID_TICKET.title, to: "Printer fixed?" }],
    });
    await stream.close();
  });

  test("a change too big for one notification still arrives: the record read again, the changed fields named", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    // 4,000 two-byte characters: the event is over Postgres' 8,000-byte NOTIFY limit
    const description = "é".repeat(4_000);
    const ticket = await call(app, "/api/v1/tickets", {
      key,
      body: { ...VALID_TICKET, description },
    });
    const stream = sseEvents(
      await subscribe(
        key,
        `subscription($id: ID) {
          ticketEvents(ticketId: $id, types: ["ticket.updated"]) {
            ticket { title description version } changes { field from to }
          }
        }`,
        { id: ticket.body.id },
      ),
    );
    await call(app, `/api/v1/tickets/${ticket.body.id}`, {
      key,
      method: "PATCH",
      body: { title: "Printer fixed?" },
    });
    expect((await stream.next()).data.ticketEvents).toEqual({
      ticket: { title: "Printer fixed?", description, version: 2 },
      changes: [{ field: "title", from: null, to: null }],
    });
    await stream.close();
  });

  test("a stream sees its own organization only, and without tickets.view_all its owner's tickets only", async () => {
    const a = await make.member({ scopes: SCOPES });
    const b = await make.member({ scopes: SCOPES });
    await make.role(b.organizationId, "desk", "TECHNICIAN", ["tickets.manage"]);
    const desk = await make.member({
      scopes: SCOPES,
      role: "desk",
      organizationId: b.organizationId,
    });
    const bStream = sseEvents(await subscribe(b.key, TICKETS));
    const deskStream = sseEvents(await subscribe(desk.key, TICKETS));
    await call(app, "/api/v1/tickets", {
      key: a.key,
      body: { ...VALID_TICKET, title: "A's ticket" },
    });
    await call(app, "/api/v1/tickets", {
      key: b.key,
      body: { ...VALID_TICKET, title: "B admin's" },
    });
    await call(app, "/api/v1/tickets", {
      key: desk.key,
      body: { ...VALID_TICKET, title: "Desk's own" },
    });
    // events arrive in commit order: the first each stream sees proves what it skipped
    expect((await bStream.next()).data.ticketEvents.ticket.title).toBe("B admin's");
    expect((await bStream.next()).data.ticketEvents.ticket.title).toBe("Desk's own");
    expect((await deskStream.next()).data.ticketEvents).toMatchObject({
      type: "ticket.created",
      ticket: { title: "Desk's own" },
    });
    await bStream.close();
    await deskStream.close();
  });

  test("alertEvents needs alerts.view and equipmentEvents equipment:read: errors in the stream", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    const stream = sseEvents(await subscribe(key, "subscription { equipmentEvents { type } }"));
    const event = await stream.next();
    expect(event.errors?.[0]).toMatchObject({
      message: "Missing scope: equipment:read",
      extensions: { code: "FORBIDDEN" },
    });
  });

  test("revoking the key ends its open streams at once and gives their slots back; other keys stream on", async () => {
    const { key, apiKey, organizationId } = await make.member({ scopes: SCOPES });
    const other = await make.member({ scopes: SCOPES, organizationId });
    const revoked = sseEvents(await subscribe(key, TICKETS));
    const kept = sseEvents(await subscribe(other.key, TICKETS));
    expect(app.services.live.openStreams(apiKey.id)).toBe(1);
    await app.services.apiKeys.revokeApiKey(apiKey.id);
    await expect(revoked.next()).rejects.toThrow("the stream ended");
    expect(app.services.live.openStreams(apiKey.id)).toBe(0);
    await call(app, "/api/v1/tickets", { key: other.key, body: VALID_TICKET });
    expect((await kept.next()).data.ticketEvents.type).toBe("ticket.created");
    await kept.close();
  });

  test("at most 10 open streams per key: the 11th is 429; closing one frees its slot at once", async () => {
    const { key, apiKey } = await make.member({ scopes: SCOPES });
    const streams = [];
    for (let i = 0; i < 10; i++) {
      const response = await subscribe(key, TICKETS);
      expect(response.status).toBe(200);
      streams.push(sseEvents(response));
    }
    expect(app.services.live.openStreams(apiKey.id)).toBe(10);
    const refused = await subscribe(key, TICKETS);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: "At most 10 open subscription streams per API key; close one first",
    });
    await streams.pop()?.close();
    await eventually(() => app.services.live.openStreams(apiKey.id) === 9, "a slot given back");
    const again = await subscribe(key, TICKETS);
    expect(again.status).toBe(200);
    streams.push(sseEvents(again));
    for (const stream of streams) await stream.close();
    await eventually(() => app.services.live.openStreams(apiKey.id) === 0, "every slot back");
  });

  test("a role that loses tickets.view_all narrows an open stream at once to the owner's tickets", async () => {
    const admin = await make.member({ scopes: SCOPES });
    const { organizationId } = admin;
    const colleague = await make.member({ scopes: SCOPES, organizationId });
    await make.role(organizationId, "desk", "TECHNICIAN", ["tickets.manage"]);
    const stream = sseEvents(await subscribe(admin.key, TICKETS));
    await call(app, "/api/v1/tickets", {
      key: colleague.key,
      body: { ...VALID_TICKET, title: "Seen while admin" },
    });
    expect((await stream.next()).data.ticketEvents.ticket.title).toBe("Seen while admin");
    // the operator moves the key's owner to a role without tickets.view_all
    await app.services.operator.addMember({ organizationId, userId: admin.user.id, role: "desk" });
    await call(app, "/api/v1/tickets", {
      key: colleague.key,
      body: { ...VALID_TICKET, title: "A colleague's, hidden now" },
    });
    await call(app, "/api/v1/tickets", {
      key: admin.key,
      body: { ...VALID_TICKET, title: "Own ticket" },
    });
    // events arrive in commit order: the next one seen proves the colleague's was skipped
    expect((await stream.next()).data.ticketEvents.ticket.title).toBe("Own ticket");
    await stream.close();
  });

  test("a role that may no longer read the resource ends the stream with an error event and frees its slot", async () => {
    const { key, apiKey, organizationId, user } = await make.member({
      scopes: [...SCOPES],
    });
    await make.role(organizationId, "clerk", "USER", ["tickets.view_all"]);
    await make.role(organizationId, "no-alerts", "TECHNICIAN", ["tickets.view_all"]);
    const tickets = sseEvents(await subscribe(key, TICKETS));
    const alerts = sseEvents(await subscribe(key, "subscription { alertEvents { type } }"));
    expect(app.services.live.openStreams(apiKey.id)).toBe(2);
    // a role without alerts.view: the alert stream ends, the ticket stream goes on
    await app.services.operator.addMember({ organizationId, userId: user.id, role: "no-alerts" });
    const refusal = await alerts.next();
    expect(refusal.errors?.[0]).toMatchObject({
      message: "Missing permission: alerts.view",
      extensions: { code: "FORBIDDEN" },
    });
    await expect(alerts.next(), "the stream closes after its error").rejects.toThrow(
      "the stream ended",
    );
    await eventually(() => app.services.live.openStreams(apiKey.id) === 1, "the alert slot back");
    // a seat without API access: the ticket stream ends the same way
    await app.services.operator.addMember({ organizationId, userId: user.id, role: "clerk" });
    const ended = await tickets.next();
    expect(ended.errors?.[0]?.message).toBe(
      "API access requires an administrator or technician seat",
    );
    await expect(tickets.next()).rejects.toThrow("the stream ended");
    await eventually(() => app.services.live.openStreams(apiKey.id) === 0, "every slot back");
  });

  test("stream slots are rows every instance counts; a slot left by a dead instance expires", async () => {
    const { key, apiKey } = await make.member({ scopes: SCOPES });
    const stream = sseEvents(await subscribe(key, TICKETS));
    expect(await app.services.live.heldStreams(apiKey.id)).toBe(1);
    const rows = await app.services.database.db
      .select()
      .from(liveStreamSlots)
      .where(eq(liveStreamSlots.apiKeyId, apiKey.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.expiresAt.getTime()).toBeGreaterThan(Date.now());
    await stream.close();
    await eventually(async () => (await app.services.live.heldStreams(apiKey.id)) === 0, "freed");
    // nine slots of an instance that stopped renewing them (expired) and nine live ones
    const stale = Array.from({ length: 9 }, () => ({
      id: crypto.randomUUID(),
      apiKeyId: apiKey.id,
      instanceId: crypto.randomUUID(),
      expiresAt: new Date(Date.now() - 1_000),
    }));
    await app.services.database.db.insert(liveStreamSlots).values(stale);
    const open = [];
    for (let i = 0; i < 10; i++) {
      const response = await subscribe(key, TICKETS);
      expect(response.status, `stream ${i + 1}`).toBe(200);
      open.push(sseEvents(response));
    }
    expect((await subscribe(key, TICKETS)).status).toBe(429);
    for (const each of open) await each.close();
  });

  if (driver === "postgres") {
    // A full key's take asks which holders still have a session while its transaction holds
    // the key's lock: on a second connection it waited for one that the pool (or PgBouncer's
    // server sessions, all held by takers queued behind that lock) never gave back.
    test("a full key's take needs one connection: refused while its holder lives, freed once it is dead", async () => {
      const { apiKey } = await make.member({ scopes: SCOPES });
      const single = await db.openAnother({ poolSize: 1 });
      // a session of this handle's own on the server, as every instance holds (its LISTEN)
      const unlisten = await single.listen("slots_probe", () => {});
      const slots = new DatabaseStreamSlots(single);
      const within = <T>(promise: Promise<T>, what: string) =>
        Promise.race([
          promise,
          Bun.sleep(5_000).then(() => {
            throw new Error(`${what}: no answer within 5 s on one connection`);
          }),
        ]);
      try {
        for (let i = 0; i < 10; i++) {
          expect(
            await within(slots.take(apiKey.id, crypto.randomUUID(), 10), `take ${i + 1}`),
          ).toBe(true);
        }
        expect(await within(slots.take(apiKey.id, crypto.randomUUID(), 10), "the 11th")).toBe(
          false,
        );
        // the ten slots now of an instance without a session (a killed one), still unexpired
        await single.db
          .update(liveStreamSlots)
          .set({ instanceId: crypto.randomUUID() })
          .where(eq(liveStreamSlots.apiKeyId, apiKey.id));
        expect(await within(slots.take(apiKey.id, crypto.randomUUID(), 10), "after")).toBe(true);
        expect(await slots.count(apiKey.id), "the dead instance's ten taken back").toBe(1);
      } finally {
        await unlisten();
        await single.close();
      }
    });
  }
}

describeEachDriver("GraphQL subscriptions over SSE", suite);
