import { expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { equipment, idempotencyKeys, tickets } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { ALL_EVENTS, PUBLIC_URL } from "../helpers/webhooks.ts";

const HOUR = 3_600_000;
const valid = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

function suite(driver: DriverName) {
  let clock = Date.now();
  const { app, db, make } = useTestApp(driver, {
    now: () => new Date(clock),
    // 50 parallel requests from one key and IP: lift the burst and minute limits for this suite
    env: {
      RATE_LIMIT_BURST_PER_SEC: "1000",
      RATE_LIMIT_KEY_PER_MIN: "100000",
      RATE_LIMIT_IP_PER_MIN: "100000",
    },
  });

  const count = (organizationId: string) =>
    db.database.db.$count(tickets, eq(tickets.organizationId, organizationId));
  const post = (key: string, idempotencyKey: string, body: unknown = valid) =>
    send(app, "/api/v1/tickets", { key, body, headers: { "idempotency-key": idempotencyKey } });

  test("same key and body → the first response again, marked replayed; one ticket", async () => {
    const { key, organizationId } = await make.member({ scopes: ["tickets:write"] });
    const first = await post(key, "retry-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(key, "retry-1", {
      description: valid.description,
      title: valid.title,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await count(organizationId)).toBe(1);
  });

  test("same key with another body → 409 and nothing created", async () => {
    const { key, organizationId } = await make.member({ scopes: ["tickets:write"] });
    expect((await post(key, "retry-2")).status).toBe(201);
    const conflict = await post(key, "retry-2", { ...valid, priority: "high" });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      error: "Idempotency-Key was already used with a different request; use a new key",
    });
    expect(await count(organizationId)).toBe(1);
  });

  test("50 parallel identical requests create exactly one ticket and all answer it", async () => {
    const { key, organizationId } = await make.member({ scopes: ["tickets:write"] });
    const responses = await Promise.all(Array.from({ length: 50 }, () => post(key, "storm")));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(
      49,
    );
    expect(await count(organizationId)).toBe(1);
  });

  test("a failed first request is not remembered: fixing nothing, a retry fails the same way", async () => {
    const { key, organizationId } = await make.member({ scopes: ["tickets:write"] });
    const bad = { ...valid, equipmentId: crypto.randomUUID() };
    expect((await post(key, "fails", bad)).status).toBe(400);
    expect((await post(key, "fails", bad)).status).toBe(400);
    expect((await post(key, "fails")).status).toBe(201);
    expect(await count(organizationId)).toBe(1);
  });

  test("keys are per API key, and forgotten after 24 hours", async () => {
    const one = await make.member({ scopes: ["tickets:write"] });
    const two = await make.member({
      organizationId: one.organizationId,
      scopes: ["tickets:write"],
    });
    const a = await (await post(one.key, "shared")).json();
    const b = await (await post(two.key, "shared")).json();
    expect(a.id).not.toBe(b.id);
    clock += 24 * HOUR + 1000;
    const later = await post(one.key, "shared");
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect((await later.json()).id).not.toBe(a.id);
    expect(await count(one.organizationId)).toBe(3);
  });

  test("a malformed Idempotency-Key → 400 naming the header", async () => {
    const { key, organizationId } = await make.member({ scopes: ["tickets:write"] });
    const response = await post(key, "x".repeat(256));
    expect(response.status).toBe(400);
    expect((await response.json()).details).toEqual([
      { path: ["Idempotency-Key"], message: "Must be 1 to 255 visible ASCII characters" },
    ]);
    expect(await count(organizationId)).toBe(0);
  });

  test("bulk-create is idempotent too", async () => {
    const { key, organizationId } = await make.member({ scopes: ["equipment:write"] });
    const body = { items: [{ name: "ws-1", type: "workstation" }] };
    const headers = { "idempotency-key": "bulk-1" };
    const first = await send(app, "/api/v1/equipments/bulk-create", { key, body, headers });
    const again = await send(app, "/api/v1/equipments/bulk-create", { key, body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(await again.json()).toEqual(await first.json());
    expect(
      await db.database.db.$count(equipment, eq(equipment.organizationId, organizationId)),
    ).toBe(1);
  });

  test("remembered answers hold no secret or install link in clear, and still replay", async () => {
    const { key, apiKey } = await make.member({
      scopes: ["equipment:write", "webhooks:read", "webhooks:write"],
    });
    const webhookBody = { url: PUBLIC_URL, events: ALL_EVENTS };
    const bulkBody = { items: [{ name: "ws-1", type: "workstation" }], tokenKind: "invitation" };
    const calls = [
      ["/api/webhooks", webhookBody, "hook-1"],
      ["/api/v1/equipments/bulk-create", bulkBody, "bulk-secret-1"],
    ] as const;
    const firsts: unknown[] = [];
    for (const [path, body, idem] of calls) {
      const first = await send(app, path, { key, body, headers: { "idempotency-key": idem } });
      expect(first.status, path).toBe(201);
      firsts.push(await first.json());
    }
    const [hook, bulk] = firsts as [{ secret: string }, { items: { installUrl: string }[] }];
    expect(hook.secret).toStartWith("whsec_");
    const token = bulk.items[0]?.installUrl.split("/install/")[1] as string;
    expect(token.length).toBeGreaterThan(10);

    const rows = await db.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.apiKeyId, apiKey.id));
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const secret of [hook.secret, hook.secret.slice("whsec_".length), token, key]) {
      expect(stored, "a secret in the idempotency store").not.toContain(secret);
    }
    expect(stored).not.toContain("whsec_");
    expect(stored).not.toContain("/install/");
    for (const row of rows) {
      // only an encrypted envelope: version, nonce, ciphertext
      expect(Object.keys(row.responseBody as object).sort()).toEqual(["data", "iv", "v"]);
    }

    for (const [index, [path, body, idem]] of calls.entries()) {
      const again = await send(app, path, { key, body, headers: { "idempotency-key": idem } });
      expect(again.status, path).toBe(201);
      expect(again.headers.get("idempotent-replayed"), path).toBe("true");
      expect(await again.json(), path).toEqual(firsts[index]);
    }
  });

  test("a stored answer moved onto another row does not open there: 409, never another's body", async () => {
    const { key, apiKey } = await make.member({ scopes: ["tickets:write"] });
    await post(key, "row-a");
    await post(key, "row-b", { ...valid, title: "Another title here" });
    const mine = and(eq(idempotencyKeys.apiKeyId, apiKey.id), eq(idempotencyKeys.key, "row-a"));
    const [a] = await db.database.db.select().from(idempotencyKeys).where(mine);
    await db.database.db
      .update(idempotencyKeys)
      .set({ responseBody: a?.responseBody })
      .where(and(eq(idempotencyKeys.apiKeyId, apiKey.id), eq(idempotencyKeys.key, "row-b")));
    const replay = await post(key, "row-b", { ...valid, title: "Another title here" });
    expect(replay.status).toBe(409);
    expect((await replay.json()).error).toContain("cannot be replayed");
  });
}

describeEachDriver("idempotency", suite);
