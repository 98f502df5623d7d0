import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { generateApiKey } from "../../src/auth/keys.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";
import { ALL_EVENTS, PUBLIC_URL } from "../helpers/webhooks.ts";

/**
 * A realistic run — keys made and used, webhooks created (signing secrets), install links made
 * and opened, an SQL statement failing with a fresh secret among its parameters, wrong keys and
 * a wrong operator token — and then the whole captured log is searched for every secret, key
 * and token the run used. Before, a failed INSERT logged its parameters (a new `whsec_`
 * secret) and the access log kept install tokens in its `path`.
 */
function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];
  const { app, db, make } = useTestApp(driver, { logs });
  const secrets: string[] = [TEST_ADMIN_TOKEN];

  /** the database refuses every new row of `table`, as a full disk or a broken replica would */
  const breakInserts = async (table: string) => {
    await db.database.db.execute(
      sql.raw(`create or replace function orgit_test_refuse() returns trigger language plpgsql
        as $$ begin raise exception 'refused by test trigger'; end $$`),
    );
    await db.database.db.execute(
      sql.raw(`create trigger orgit_test_refuse before insert on ${table}
        for each row execute function orgit_test_refuse()`),
    );
  };

  test("a full run's log holds no secret, key, token or SQL parameter", async () => {
    const member = await make.member({
      scopes: ["webhooks:read", "webhooks:write", "equipment:write", "projects:write"],
    });
    const other = await make.member({ scopes: ["tickets:read"] });
    secrets.push(member.key, other.key);

    for (let i = 0; i < 2; i++) {
      const created = await send(app, "/api/webhooks", {
        key: member.key,
        body: { url: `${PUBLIC_URL}/${i}`, events: ALL_EVENTS },
        headers: { "idempotency-key": `hook-${i}` },
      });
      expect(created.status).toBe(201);
      secrets.push((await created.json()).secret);
    }
    const bulk = await send(app, "/api/v1/equipments/bulk-create", {
      key: member.key,
      body: { items: [{ name: "ws", type: "workstation" }], tokenKind: "invitation" },
    });
    expect(bulk.status).toBe(201);
    const installUrl: string = (await bulk.json()).items[0].installUrl;
    const token = installUrl.split("/install/")[1] as string;
    secrets.push(token);
    expect((await send(app, new URL(installUrl).pathname)).status).toBe(200);
    expect((await send(app, new URL(installUrl).pathname)).status).toBe(410);

    await send(app, "/api/v1/whoami", { key: other.key });
    const { json } = await graphql(app, member.key, "{ whoami { user { id } } }");
    expect(json.errors).toBeUndefined();

    // wrong keys of every shape, and a wrong operator token
    const wellFormed = generateApiKey();
    const wrongOperator = "wrong-operator-token-9876543210";
    secrets.push(wellFormed, wrongOperator);
    // the last character changed (to one it is not: a key ending in "x" stayed valid once)
    const mistyped = `${member.key.slice(0, -1)}${member.key.endsWith("x") ? "y" : "x"}`;
    for (const key of [wellFormed, mistyped, "orgit_short"]) {
      expect((await send(app, "/api/v1/whoami", { key })).status).toBe(401);
      expect((await send(app, "/api/projects", { key })).status).toBe(401);
    }
    expect((await graphql(app, wrongOperator, "{ organizations { id } }")).response.status).toBe(
      401,
    );

    // an SQL statement fails with a freshly generated signing secret among its parameters
    await breakInserts("webhook_subscriptions");
    const failed = await send(app, "/api/webhooks", {
      key: member.key,
      body: { url: PUBLIC_URL, events: ALL_EVENTS },
    });
    expect(failed.status).toBe(500);
    await breakInserts("projects");
    const viaGraphql = await graphql(
      app,
      member.key,
      'mutation { createProject(input: { name: "p" }) { id } }',
    );
    expect(viaGraphql.json.errors?.[0]?.message).toBe("Internal server error");

    // access-log lines are written after each response is sent: wait for the last one's
    const lastId = viaGraphql.response.headers.get("x-request-id");
    await eventually(
      () => logs.some((l) => l.msg === "request" && l.requestId === lastId),
      "the access-log line of the last request",
    );
    const log = logs.map((line) => JSON.stringify(line)).join("\n");
    for (const secret of secrets) {
      expect(log.includes(secret), `the log holds ${secret.slice(0, 10)}…`).toBe(false);
      if (secret.startsWith("whsec_")) {
        expect(log.includes(secret.slice("whsec_".length)), "a secret's body").toBe(false);
      }
    }
    expect(log).not.toMatch(/whsec_[A-Za-z0-9+/]{8}/);
    expect(log).not.toMatch(/orgit_[0-9A-Za-z]{16}/);
    expect(log).not.toMatch(/params: [^[]/);

    // the failures are still diagnosable: statement text and Postgres's code, no values
    const errors = logs.filter((l) => l.level === "error");
    expect(errors.length, "both failures are logged").toBeGreaterThanOrEqual(2);
    const insert = errors.find((l) => String(l.query ?? "").includes("webhook_subscriptions"));
    expect(insert?.sqlState, JSON.stringify(errors)).toBe("P0001");
    expect(String(insert?.error)).toContain("refused by test trigger");
    expect(String(insert?.query)).toContain("$1");
    const paths = logs.filter((l) => l.msg === "request").map((l) => l.path);
    expect(paths).toContain("/install/[redacted]");
  });
}

describeEachDriver("log secrets", suite);
