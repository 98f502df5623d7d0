import { afterAll, beforeAll, expect, test } from "bun:test";
import { sendWebhook } from "../../src/outbox/send.ts";

/**
 * A stall of the service's own event loop (a long synchronous stretch, a busy embedded
 * database) does not make a send the receiver answered count as timed out, so it is not sent
 * again. The receiver runs on its own thread, as a real one runs in its own process: it
 * answers while the service's loop is blocked. (A receiver sharing the blocked loop cannot
 * answer at all, and its send does time out and is retried: docs/decisions.md, "Duplicate
 * webhook sends in the two-instance test".)
 */
const RECEIVER = `
  let count = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      await request.text();
      count += 1;
      postMessage({ answered: count });
      return new Response("ok");
    },
  });
  self.onmessage = () => postMessage({ count });
  postMessage({ port: server.port });
`;

interface Message {
  port?: number;
  count?: number;
  answered?: number;
}

let worker: Worker;
let url: string;
let onAnswered: () => void = () => {};
const replies: ((data: Message) => void)[] = [];

beforeAll(async () => {
  worker = new Worker(URL.createObjectURL(new Blob([RECEIVER], { type: "text/javascript" })));
  worker.onmessage = (event: MessageEvent<Message>) => {
    if (event.data.answered !== undefined) onAnswered();
    else replies.shift()?.(event.data);
  };
  const { port } = await new Promise<Message>((resolve) => replies.push(resolve));
  url = `http://127.0.0.1:${port}/hook`;
});
afterAll(() => worker.terminate());

const receivedCount = async () => {
  const answer = new Promise<Message>((resolve) => replies.push(resolve));
  worker.postMessage("count");
  return (await answer).count ?? 0;
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
  // the moment the receiver answers, this loop stalls for twice the send timeout
  let settled = false;
  let stalledMidSend = false;
  onAnswered = () => {
    stalledMidSend = !settled;
    block(2_000);
  };
  const result = await sendWebhook({
    url,
    secrets: [`whsec_${btoa("stall-test-secret-0123456789")}`],
    webhookId: "msg_stall",
    payload: { type: "project.created" },
    timeoutMs: 1_000,
    allowPrivate: true,
    signal: new AbortController().signal,
  });
  settled = true;
  onAnswered = () => {};
  expect(stalledMidSend, "the stall began before the answer was read").toBe(true);
  expect(result).toEqual({ kind: "delivered", status: 200 });
  expect(await receivedCount()).toBe(before + 1);
});
