import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { call } from "../helpers/lifecycle.ts";

const SCOPES = ["alerts:read", "alerts:write"];

/** Reading one alert and moving it (docs/decisions.md §17.4). */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, { now: clock.now });
  let peer = 1;

  /** a member with an ingested open alert */
  async function withAlert() {
    const member = await make.member({ scopes: SCOPES });
    const ip = `127.0.7.${peer++}`;
    await app.services.operator.addIngestSource({
      organizationId: member.organizationId,
      cidr: `${ip}/32`,
    });
    const ingested = await send(app, "/api/v1/alerts/ingest", {
      method: "POST",
      peer: ip,
      body: { source: "nagios", title: "Disk full", severity: "critical", message: "sda1 100%" },
    });
    return { ...member, id: (await ingested.json()).ids[0] as string };
  }

  test("GET /alerts/{id} answers the alert with its history fields, version 1 and ETag", async () => {
    const { key, id } = await withAlert();
    const answer = await call(app, `/api/v1/alerts/${id}`, { key });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("etag")).toBe('"1"');
    expect(answer.body).toEqual({
      id,
      source: "nagios",
      externalId: null,
      severity: "critical",
      status: "open",
      title: "Disk full",
      message: "sda1 100%",
      equipmentId: null,
      occurredAt: null,
      receivedAt: clock.now().toISOString(),
      acknowledgedAt: null,
      acknowledgedBy: null,
      acknowledgementNote: null,
      resolvedAt: null,
      resolvedBy: null,
      resolutionNote: null,
      updatedAt: clock.now().toISOString(),
      version: 1,
    });
  });

  test("acknowledge, resolve and reopen record who, when and why, each a new version", async () => {
    const { key, id, user } = await withAlert();
    clock.advance(60_000);
    const acknowledged = await call(app, `/api/v1/alerts/${id}/acknowledge`, {
      key,
      body: { note: "On it" },
    });
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.headers.get("etag")).toBe('"2"');
    expect(acknowledged.body).toMatchObject({
      status: "acknowledged",
      acknowledgedAt: clock.now().toISOString(),
      acknowledgedBy: user.id,
      acknowledgementNote: "On it",
      version: 2,
    });
    clock.advance(60_000);
    const resolved = await call(app, `/api/v1/alerts/${id}/resolve`, {
      key,
      method: "POST",
      headers: { "if-match": '"2"' },
    });
    expect(resolved.body).toMatchObject({
      status: "resolved",
      resolvedBy: user.id,
      resolutionNote: null,
      acknowledgementNote: "On it",
      updatedAt: clock.now().toISOString(),
      version: 3,
    });
    const reopened = await call(app, `/api/v1/alerts/${id}/reopen`, { key, method: "POST" });
    expect(reopened.body).toMatchObject({
      status: "open",
      acknowledgedAt: null,
      acknowledgementNote: null,
      resolvedAt: null,
      resolvedBy: null,
      version: 4,
    });
    const listed = await call(app, "/api/v1/alerts?status=open", { key });
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([id]);
  });

  test("an open alert resolves directly; an acknowledged one reopens", async () => {
    const first = await withAlert();
    const resolved = await call(app, `/api/v1/alerts/${first.id}/resolve`, {
      key: first.key,
      body: { note: "False alarm" },
    });
    expect(resolved.body).toMatchObject({ status: "resolved", resolutionNote: "False alarm" });
    const second = await withAlert();
    await call(app, `/api/v1/alerts/${second.id}/acknowledge`, { key: second.key, body: {} });
    const reopened = await call(app, `/api/v1/alerts/${second.id}/reopen`, {
      key: second.key,
      method: "POST",
    });
    expect(reopened.body.status).toBe("open");
  });

  test("GraphQL: alert(id) and acknowledgeAlert(id, note)", async () => {
    const { key, id } = await withAlert();
    const { json } = await graphql(
      app,
      key,
      `mutation($id: ID!) { acknowledgeAlert(id: $id, note: "seen") { status acknowledgementNote version } }`,
      { id },
    );
    expect(json.data?.acknowledgeAlert).toEqual({
      status: "acknowledged",
      acknowledgementNote: "seen",
      version: 2,
    });
    const read = await graphql(app, key, `query($id: ID!) { alert(id: $id) { status } }`, { id });
    expect(read.json.data?.alert).toEqual({ status: "acknowledged" });
  });
}

describeEachDriver("alert moves", suite);
