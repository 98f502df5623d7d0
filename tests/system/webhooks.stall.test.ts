import { afterAll, beforeAll, expect, test } from "bun:test";
import { sendWebhook } from "../../src/outbox/send.ts";

/**
 * A stall of the service's own event loop (a long synchronous stretch, a busy embedded
 * database) does not make a send the receiver answered count as timed out, so it is not sent
 * again. The receiver runs on its own thread, as a real one runs in its own process: it reads
 * and answers while the service's loop is blocked. (A receiver sharing the blocked loop cannot
 * answer at all, and its send does time out and is retried: see docs/decisions.md, the section
 * on the duplicate sends of the two-instance durability test.)
 */
const RECEIVER = `
  let count = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      await request.text();
      count += 1;
      return new Response("ok");
    },
  });
  self.onmessage = () => postMessage({ count });
  postMessage({ port: server.port });
`;

let worker: Worker;
let url: string;
const messages: ((data: { port?: number; count?: number }) => void)[] = [];

beforeAll(async () => {
  worker = new Worker(URL.createObjectURL(new Blob([RECEIVER], { type: "text/javascript" })));
  worker.onmessage = (event) => messages.shift()?.(event.data);
  const { port } = await new Promise<{ port?: number }>((resolve) => messages.push(resolve));
  url = `http://127.0.0.1:${port}/hook`;
});
afterAll(() => worker.terminate());

const receivedCount = async () => {
  const answer = new Promise<{ count?: number }>((resolve) => messages.push(resolve));
  worker.postMessage("count");
  return (await answer).count;
};

/** blocks this thread's event loop: no timer, no socket is served meanwhile */
function block(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

test("a send answered during a stall longer than its timeout is delivered, and sent once", async () => {
  const before = await receivedCount();
  const sending = sendWebhook({
    url,
    secret: `whsec_${btoa("stall-test-secret-0123456789")}`,
    webhookId: "msg_stall",
    payload: { type: "project.created" },
    timeoutMs: 300,
    allowPrivate: true,
    signal: new AbortController().signal,
  });
  // let the request leave (fetch sends from its own thread), then stall past the timeout
  await Bun.sleep(20);
  block(1_000);
  expect(await sending).toEqual({ kind: "delivered", status: 200 });
  expect(await receivedCount()).toBe((before ?? 0) + 1);
});
