import { afterAll, expect, test } from "bun:test";
import { readBodyLimited } from "../../src/http/json-body.ts";

/**
 * How a body is read (src/http/json-body.ts): whole by the runtime when it declares a
 * Content-Length within the limit, through the stream with a running count otherwise (chunked
 * uploads, a length over the limit, a malformed header). Over real HTTP, so the requests carry
 * the headers a client sends.
 */
const LIMIT = 64;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    try {
      return Response.json({ text: await readBodyLimited(request, LIMIT) });
    } catch (error) {
      return Response.json({ refused: (error as Error).message }, { status: 413 });
    }
  },
});
const url = `http://127.0.0.1:${server.port}/`;
afterAll(() => server.stop(true));

test("a body with its Content-Length is read whole, multi-byte characters intact", async () => {
  const body = '{"title":"Café ☕ 🧾"}';
  const response = await fetch(url, { method: "POST", body });
  expect(await response.json()).toEqual({ text: body });
});

test("a declared length over the limit is refused, as a chunked body past the limit is", async () => {
  const long = "x".repeat(LIMIT + 1);
  expect((await fetch(url, { method: "POST", body: long })).status).toBe(413);
  const chunks = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode("y".repeat(40)));
      controller.close();
    },
  });
  expect((await fetch(url, { method: "POST", body: chunks })).status).toBe(413);
});

test("a chunked body within the limit is read through the stream", async () => {
  const chunks = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"a":'));
      controller.enqueue(new TextEncoder().encode("1}"));
      controller.close();
    },
  });
  const response = await fetch(url, { method: "POST", body: chunks });
  expect(await response.json()).toEqual({ text: '{"a":1}' });
});
