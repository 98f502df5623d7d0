import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { auditor, graphqlRecorded, readLog, sendRecorded } from "./helpers.ts";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("every request a client made is in the trail exactly once, with its route template and status", async () => {
    const reader = await auditor(make);
    const client = await make.member({
      organizationId: reader.organizationId,
      role: "admin",
      scopes: ["tickets:read", "tickets:write"],
    });
    const made: { requestId: string; route: string; status: number; method: string }[] = [];
    const call = async (
      path: string,
      route: string,
      options: Parameters<typeof sendRecorded>[2] = {},
    ) => {
      const response = await sendRecorded(app, path, { key: client.key, ...options });
      made.push({
        requestId: response.headers.get("x-request-id") as string,
        route,
        status: response.status,
        method: options.method ?? (options.body ? "POST" : "GET"),
      });
      return response;
    };
    await call("/api/v1/whoami", "/api/v1/whoami");
    await call("/api/v1/tickets?status=open&limit=5", "/api/v1/tickets");
    const created = await call("/api/v1/tickets", "/api/v1/tickets", {
      method: "POST",
      body: { title: "Printer jammed", description: "Tray 2 jams on every page" },
    });
    expect(created.status).toBe(201);
    await call("/api/v1/tickets", "/api/v1/tickets", { method: "POST", body: { title: "" } });
    await call("/api/v1/users", "/api/v1/users"); // no users:read scope: 403
    const gql = await graphqlRecorded(app, client.key, "{ whoami { user { id } } }");
    made.push({
      requestId: gql.response.headers.get("x-request-id") as string,
      route: "/graphql",
      status: gql.response.status,
      method: "POST",
    });

    const { response, json } = await readLog(
      app,
      reader.key,
      `?userId=${client.user.id}&limit=200`,
    );
    expect(response.status).toBe(200);
    const seen = json.data.map((e: Record<string, unknown>) => ({
      requestId: e.requestId,
      route: e.route,
      status: e.status,
      method: e.method,
    }));
    const requests = seen.filter((e: { method: unknown }) => e.method !== null);
    expect(requests.sort(byId), "each request once, as made").toEqual([...made].sort(byId));
    for (const entry of json.data.filter((e: { kind: string }) => e.kind === "request")) {
      expect(entry.keyId).toBe(client.apiKey.id);
      expect(entry.ip).toBe("127.0.0.1");
      expect(entry.route, "a template, never the query").not.toContain("?");
    }
    expect(made.map((m) => m.status)).toEqual([200, 200, 201, 400, 403, 200]);
  });

  test("a key created and revoked are events in its organization's trail", async () => {
    const reader = await auditor(make);
    const other = await make.member({ organizationId: reader.organizationId, role: "admin" });
    await app.services.apiKeys.revokeApiKey(other.apiKey.id);
    const { json } = await readLog(app, reader.key, `?keyId=${other.apiKey.id}`);
    expect(json.data.map((e: { kind: string }) => e.kind)).toEqual([
      "api_key.revoked",
      "api_key.created",
    ]);
    expect(json.data[1].detail).toMatchObject({ name: "test key" });
  });

  test("a recognised key that is refused (revoked) is in its organization's trail with its 401", async () => {
    const reader = await auditor(make);
    const gone = await make.member({ organizationId: reader.organizationId, role: "admin" });
    await app.services.apiKeys.revokeApiKey(gone.apiKey.id);
    const refused = await sendRecorded(app, "/api/v1/whoami", { key: gone.key });
    expect(refused.status).toBe(401);
    const viaGraphql = await graphqlRecorded(app, gone.key, "{ whoami { user { id } } }");
    expect(viaGraphql.response.status).toBe(401);
    const { json } = await readLog(app, reader.key, `?keyId=${gone.apiKey.id}&statusClass=4xx`);
    expect(json.data.map((e: { route: string; status: number }) => [e.route, e.status])).toEqual([
      ["/graphql", 401],
      ["/api/v1/whoami", 401],
    ]);
    expect(json.data[0].userId).toBe(gone.user.id);
  });

  test("pages follow nextCursor newest first with no entry twice, and filters narrow", async () => {
    const reader = await auditor(make);
    for (let i = 0; i < 5; i++) await sendRecorded(app, "/api/v1/whoami", { key: reader.key });
    await sendRecorded(app, "/api/v1/tickets", { key: reader.key, method: "POST", body: {} });
    const ids: string[] = [];
    let after = "";
    for (let page = 0; page < 10; page++) {
      const { json } = await readLog(
        app,
        reader.key,
        `?route=/api/v1/whoami&statusClass=2xx&limit=2${after ? `&after=${after}` : ""}`,
      );
      ids.push(...json.data.map((e: { id: string }) => e.id));
      for (const e of json.data) expect([e.route, e.status]).toEqual(["/api/v1/whoami", 200]);
      if (!json.nextCursor) break;
      after = json.nextCursor;
    }
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
  });

  test("GraphQL auditLog answers the same entries as REST", async () => {
    const reader = await auditor(make);
    await sendRecorded(app, "/api/v1/whoami", { key: reader.key });
    await app.services.auditTrail.flush();
    const { json } = await graphqlRecorded(
      app,
      reader.key,
      `query($f: AuditLogFilter) { auditLog(filter: $f, limit: 1) { data { route status keyId } nextCursor } }`,
      { f: { route: "/api/v1/whoami", keyId: reader.apiKey.id } },
    );
    expect(json.data.auditLog.data).toEqual([
      { route: "/api/v1/whoami", status: 200, keyId: reader.apiKey.id },
    ]);
  });

  test("the export streams NDJSON of [from, to), oldest first", async () => {
    const reader = await auditor(make);
    for (let i = 0; i < 3; i++) await sendRecorded(app, "/api/v1/whoami", { key: reader.key });
    await app.services.auditTrail.flush();
    const now = app.services.now();
    const from = new Date(now.getTime() - 3_600_000).toISOString();
    const to = new Date(now.getTime() + 3_600_000).toISOString();
    const response = await sendRecorded(app, `/api/v1/audit-log/export?from=${from}&to=${to}`, {
      key: reader.key,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const mine = lines.filter((l) => l.keyId === reader.apiKey.id && l.kind === "request");
    expect(mine.map((l) => l.route)).toEqual([
      "/api/v1/whoami",
      "/api/v1/whoami",
      "/api/v1/whoami",
    ]);
    const times = lines.map((l) => Date.parse(l.at));
    expect(times, "oldest first").toEqual([...times].sort((a, b) => a - b));
  });
}

const byId = (a: { requestId: string }, b: { requestId: string }) =>
  a.requestId.localeCompare(b.requestId);

describeEachDriver("audit trail: recording and reading", suite);
