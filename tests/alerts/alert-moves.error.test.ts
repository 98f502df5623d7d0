import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { call, eventCount, watchEvents } from "../helpers/lifecycle.ts";

const SCOPES = ["alerts:read", "alerts:write", "webhooks:read", "webhooks:write"];
const ALERT_EVENTS = ["alert.acknowledged", "alert.resolved", "alert.reopened"];

/** Bad alert moves: a clear 4xx, the alert unchanged and no event written (docs/decisions.md §17.4). */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);
  let peer = 1;

  async function arranged(moves: string[] = []) {
    const member = await make.member({ scopes: SCOPES });
    await watchEvents(app, member.key, ALERT_EVENTS);
    const ip = `127.0.6.${peer++}`;
    await app.services.operator.addIngestSource({
      organizationId: member.organizationId,
      cidr: `${ip}/32`,
    });
    const ingested = await send(app, "/api/v1/alerts/ingest", {
      method: "POST",
      peer: ip,
      body: { source: "nagios", title: "Disk full" },
    });
    const id = (await ingested.json()).ids[0] as string;
    for (const move of moves) {
      const moved = await call(app, `/api/v1/alerts/${id}/${move}`, { key: member.key, body: {} });
      expect(moved.status).toBe(200);
    }
    const events = await eventCount(app, member.organizationId);
    const before = await call(app, `/api/v1/alerts/${id}`, { key: member.key });
    const unchanged = async () => {
      const after = await call(app, `/api/v1/alerts/${id}`, { key: member.key });
      expect(after.body, "the alert is unchanged").toEqual(before.body);
      expect(await eventCount(app, member.organizationId), "no event written").toBe(events);
    };
    return { ...member, id, unchanged };
  }

  for (const [moves, move, from, to] of [
    [[], "reopen", "open", "open"],
    [["acknowledge"], "acknowledge", "acknowledged", "acknowledged"],
    [["resolve"], "acknowledge", "resolved", "acknowledged"],
    [["resolve"], "resolve", "resolved", "resolved"],
  ] as const) {
    test(`${move} of a ${from} alert → 409 Invalid status transition: ${from} → ${to}`, async () => {
      const { key, id, unchanged } = await arranged([...moves]);
      const answer = await call(app, `/api/v1/alerts/${id}/${move}`, { key, body: {} });
      expect(answer).toMatchObject({
        status: 409,
        body: { error: `Invalid status transition: ${from} → ${to}` },
      });
      await unchanged();
    });
  }

  test("an unknown or malformed id → 404 Alert not found", async () => {
    const { key } = await arranged();
    for (const id of [crypto.randomUUID(), "42"]) {
      for (const path of [`/api/v1/alerts/${id}`, `/api/v1/alerts/${id}/acknowledge`]) {
        const answer = await call(app, path, {
          key,
          method: path.endsWith("acknowledge") ? "POST" : "GET",
        });
        expect({ path, status: answer.status, body: answer.body }).toEqual({
          path,
          status: 404,
          body: { error: "Alert not found" },
        });
      }
    }
  });

  test("a stale If-Match → 412 Version mismatch", async () => {
    const { key, id, unchanged } = await arranged(["acknowledge"]);
    const answer = await call(app, `/api/v1/alerts/${id}/resolve`, {
      key,
      method: "POST",
      headers: { "if-match": '"1"' },
    });
    expect(answer).toMatchObject({ status: 412, body: { error: "Version mismatch" } });
    await unchanged();
  });

  test("a note over 10,000 characters, not text, or with NUL → 400 naming note", async () => {
    const { key, id, unchanged } = await arranged();
    for (const note of ["n".repeat(10_001), 42, "nul\u0000"]) {
      const answer = await call(app, `/api/v1/alerts/${id}/acknowledge`, { key, body: { note } });
      expect({ status: answer.status, path: answer.body.details?.[0]?.path }).toEqual({
        status: 400,
        path: ["note"],
      });
    }
    await unchanged();
  });
}

describeEachDriver("alert moves: bad input", suite);
