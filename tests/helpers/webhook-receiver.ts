import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  webhookId: string;
  timestamp: string;
  /** the verified, parsed body: { type, timestamp, data } */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary payloads
  body: any;
  /** status this receiver answered */
  status: number;
}

export interface ReceiverOptions {
  /** answers in order, then 200 for everything after */
  script?: number[];
  /** ms to wait before answering (a slow receiver, simulated on purpose: pacing, not a wait) */
  delayMs?: number;
  /** answers only once this settles: a receiver that hangs until the test lets it go */
  hold?: Promise<unknown>;
}

/**
 * A real HTTP receiver on a free loopback port that verifies every request with the
 * `standardwebhooks` library (a bad signature answers 401 and is counted in `rejected`). It
 * also records when two requests with the same webhook-id overlap in time. It runs on the test's
 * own event loop: a test that blocks the loop past the send timeout gets sends retried.
 */
export function startReceiver(secret: () => string | undefined, options: ReceiverOptions = {}) {
  const received: ReceivedWebhook[] = [];
  const rejected: string[] = [];
  const inFlight = new Map<string, number>();
  const overlaps: string[] = [];
  const arrived: string[] = [];
  const script = [...(options.script ?? [])];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const text = await request.text();
      const headers = Object.fromEntries(request.headers);
      const id = headers["webhook-id"] ?? "";
      arrived.push(id);
      const now = (inFlight.get(id) ?? 0) + 1;
      inFlight.set(id, now);
      if (now > 1) overlaps.push(id);
      try {
        const key = secret();
        let body: unknown;
        try {
          body = new Webhook(key ?? "").verify(text, headers);
        } catch (error) {
          rejected.push(`${id}: ${(error as Error).message}`);
          return new Response("bad signature", { status: 401 });
        }
        if (options.delayMs) await Bun.sleep(options.delayMs);
        if (options.hold) await options.hold;
        const status = script.shift() ?? 200;
        received.push({
          webhookId: id,
          timestamp: headers["webhook-timestamp"] ?? "",
          body,
          status,
        });
        return new Response(status === 200 ? "ok" : "nope", { status });
      } finally {
        inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    rejected,
    overlaps,
    /** webhook-ids of requests that reached the receiver, answered or not yet */
    arrived,
    /** successful (2xx) receipts, one per webhook-id */
    deliveredIds: () => new Set(received.filter((r) => r.status < 300).map((r) => r.webhookId)),
    stop: () => server.stop(true),
  };
}

/** Deliveries are asynchronous: suites wait for them with this (tests/helpers/wait.ts). */
export { eventually } from "./wait.ts";
