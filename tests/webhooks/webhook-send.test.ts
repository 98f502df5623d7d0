import { afterAll, beforeAll, expect, setSystemTime, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { type SendInput, sendWebhook } from "../../src/outbox/send.ts";
import { newWebhookSecret } from "../../src/outbox/signer.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * One webhook send (src/outbox/send.ts) against receivers on 127.0.0.1: what the receiver gets, and how each answer is recorded — 2xx delivered, a redirect
 * reported and not followed, an error body kept to 200 characters, a timeout, a refused target,
 * a connection that fails, and a send cut short by shutdown.
 */
interface Seen {
  method: string;
  headers: Record<string, string>;
  body: string;
}
const seen: Seen[] = [];
let held: (() => void) | undefined;
let chunks = 0;
let endlessCancelled = false;
let server: ReturnType<typeof Bun.serve>;
const LONG = "é".repeat(150) + "x".repeat(700); // 300 bytes of é, then 700 of x

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      seen.push({
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      });
      const status = Number(path.split("/")[2] ?? 200);
      if (path.startsWith("/status/")) return new Response(null, { status });
      if (path === "/error-body") return new Response(LONG, { status: 500 });
      if (path === "/redirect")
        return new Response(null, {
          status: 302,
          headers: { location: `http://127.0.0.1:${server.port}/elsewhere` },
        });
      if (path === "/redirect-long")
        return new Response(null, {
          status: 307,
          headers: { location: `http://127.0.0.1/${"a".repeat(300)}` },
        });
      if (path === "/redirect-none") return new Response(null, { status: 301 });
      if (path === "/endless")
        return new Response(
          new ReadableStream({
            pull(controller) {
              controller.enqueue(new TextEncoder().encode("z".repeat(64)));
            },
          }),
          { status: 503 },
        );
      if (path === "/chunked")
        return new Response(
          new ReadableStream({
            async pull(controller) {
              // 25 bytes at a time, each in its own write: the snippet is read across chunks
              await Bun.sleep(2);
              controller.enqueue(new TextEncoder().encode(`${"ab".repeat(12)}|`));
              if (++chunks >= 20) controller.close();
            },
          }),
          { status: 502 },
        );
      if (path === "/endless-watched")
        return new Response(
          new ReadableStream({
            pull(controller) {
              controller.enqueue(new TextEncoder().encode("z".repeat(64)));
            },
            cancel() {
              endlessCancelled = true;
            },
          }),
          { status: 503 },
        );
      if (path === "/hold") await new Promise<void>((resolve) => (held = resolve));
      return new Response("ok");
    },
  });
});
afterAll(() => {
  held?.();
  server.stop(true);
});

const input = (path: string, over: Partial<SendInput> = {}): SendInput => ({
  url: `http://127.0.0.1:${server.port}${path}`,
  secrets: [newWebhookSecret()],
  webhookId: "msg_1",
  payload: { type: "project.created", data: { name: "Zoë" } },
  timeoutMs: 5_000,
  allowPrivate: true,
  signal: new AbortController().signal,
  ...over,
});

test("a signed JSON POST; any 2xx is delivered", async () => {
  const sent = input("/status/204");
  seen.length = 0;
  const sentAt = Date.now();
  expect(await sendWebhook(sent)).toEqual({ kind: "delivered", status: 204 });
  expect(seen).toHaveLength(1);
  const [request] = seen as [Seen];
  expect(request.method).toBe("POST");
  expect(request.body).toBe(JSON.stringify(sent.payload));
  expect(request.headers).toMatchObject({
    "content-type": "application/json",
    "user-agent": "orgit-webhooks/1",
    "webhook-id": "msg_1",
  });
  expect(Math.abs(Number(request.headers["webhook-timestamp"]) * 1000 - sentAt)).toBeLessThan(
    5_000,
  );
  expect(new Webhook(sent.secrets[0] as string).verify(request.body, request.headers)).toEqual(
    sent.payload,
  );
  expect(await sendWebhook(input("/status/200"))).toEqual({ kind: "delivered", status: 200 });
  expect(await sendWebhook(input("/status/299"))).toEqual({ kind: "delivered", status: 299 });
});

test("other statuses fail with the status and the start of the body", async () => {
  expect(await sendWebhook(input("/status/400"))).toEqual({
    kind: "failed",
    status: 400,
    error: "HTTP 400",
  });
  expect(await sendWebhook(input("/status/404"))).toEqual({
    kind: "failed",
    status: 404,
    error: "HTTP 404",
  });
  expect(await sendWebhook(input("/error-body"))).toEqual({
    kind: "failed",
    status: 500,
    error: `HTTP 500: ${LONG.slice(0, 200)}`,
  });
});

test("a redirect is reported with its location (200 characters at most) and never followed", async () => {
  seen.length = 0;
  expect(await sendWebhook(input("/redirect"))).toEqual({
    kind: "failed",
    status: 302,
    error: `HTTP 302: redirect not followed (location: http://127.0.0.1:${server.port}/elsewhere)`,
  });
  expect(seen.map((s) => s.method)).toEqual(["POST"]);
  const long = await sendWebhook(input("/redirect-long"));
  expect(long).toEqual({
    kind: "failed",
    status: 307,
    error: `HTTP 307: redirect not followed (location: ${`http://127.0.0.1/${"a".repeat(300)}`.slice(0, 200)})`,
  });
  expect(await sendWebhook(input("/redirect-none"))).toEqual({
    kind: "failed",
    status: 301,
    error: "HTTP 301: redirect not followed (location: none)",
  });
  expect(await sendWebhook(input("/status/399"))).toMatchObject({
    status: 399,
    error: "HTTP 399: redirect not followed (location: none)",
  });
});

test("an endless error body is cut after its first bytes, well before the timeout", async () => {
  const started = performance.now();
  const result = await sendWebhook(input("/endless", { timeoutMs: 4_000 }));
  expect(result).toEqual({ kind: "failed", status: 503, error: `HTTP 503: ${"z".repeat(200)}` });
  expect(performance.now() - started).toBeLessThan(3_000);
});

test("an error body arriving in small pieces: its first 200 characters, in order", async () => {
  chunks = 0;
  const result = await sendWebhook(input("/chunked"));
  expect(result).toEqual({
    kind: "failed",
    status: 502,
    error: `HTTP 502: ${`${"ab".repeat(12)}|`.repeat(8)}`,
  });
});

test("the rest of an error body is cancelled: the receiver sees the request end", async () => {
  endlessCancelled = false;
  await sendWebhook(input("/endless-watched", { timeoutMs: 30_000 }));
  await eventually(() => endlessCancelled, "the receiver's stream cancelled", 2_000);
});

test("status 300 is a redirect, not a success", async () => {
  expect(await sendWebhook(input("/status/300"))).toEqual({
    kind: "failed",
    status: 300,
    error: "HTTP 300: redirect not followed (location: none)",
  });
});

test("no answer within the timeout: failed, with the time", async () => {
  const result = await sendWebhook(input("/hold", { timeoutMs: 150 }));
  held?.();
  held = undefined;
  expect(result).toEqual({ kind: "failed", error: "Timed out after 150 ms" });
});

test("shutdown cuts a send short: aborted, not failed", async () => {
  const controller = new AbortController();
  const sending = sendWebhook(input("/hold", { signal: controller.signal }));
  while (!held) await Bun.sleep(5);
  controller.abort();
  expect(await sending).toEqual({ kind: "aborted" });
  held?.();
  held = undefined;
});

test("a port nobody listens on: could not connect", async () => {
  const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = closed.port;
  closed.stop(true);
  const result = await sendWebhook({ ...input("/"), url: `http://127.0.0.1:${port}/hook` });
  expect(result).toMatchObject({ kind: "failed" });
  expect((result as { error: string }).error).toStartWith("Could not connect: ");
  expect(result).not.toHaveProperty("status");
});

test("a refused target is never contacted", async () => {
  seen.length = 0;
  const result = await sendWebhook(input("/status/204", { allowPrivate: false }));
  expect(result).toEqual({
    kind: "failed",
    error: "Refused: Must be an https URL",
  });
  const literal = await sendWebhook({
    ...input("/"),
    url: "https://127.0.0.1/hook",
    allowPrivate: false,
  });
  expect(literal).toEqual({
    kind: "failed",
    error:
      "Refused: Must not point to a loopback, private, link-local, CGNAT, unique-local or metadata address",
  });
  expect(seen).toEqual([]);
});

test("a resolver that breaks is an error of the service, not a refusal", async () => {
  const broken = sendWebhook({
    ...input("/"),
    url: "https://receiver.example/hook",
    allowPrivate: false,
    resolve: async () => null as unknown as string[],
  });
  await expect(broken).rejects.toBeInstanceOf(TypeError);
});

test("the signature's timestamp is the send time", async () => {
  const at = new Date("2035-05-05T05:05:05.555Z");
  setSystemTime(at);
  try {
    seen.length = 0;
    await sendWebhook(input("/status/204"));
    expect(seen[0]?.headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
  } finally {
    setSystemTime();
  }
});

test("no secret that can be read: failed with what to do, and the receiver never contacted", async () => {
  seen.length = 0;
  expect(await sendWebhook(input("/status/204", { secrets: [] }))).toEqual({
    kind: "failed",
    error:
      "The signing secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed?); rotate the webhook's secret",
  });
  expect(seen).toEqual([]);
});

test("during a rotation's grace both secrets sign: a receiver holding either one verifies", async () => {
  const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
  seen.length = 0;
  const sent = input("/status/204", { secrets: [current, previous] });
  expect(await sendWebhook(sent)).toEqual({ kind: "delivered", status: 204 });
  const [request] = seen as [Seen];
  for (const secret of [current, previous]) {
    expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(sent.payload);
  }
});
