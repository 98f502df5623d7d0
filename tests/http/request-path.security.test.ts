import { expect, test } from "bun:test";
import { createConnection } from "node:net";
import { setPeerAddress } from "../../src/http/peer.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { eventuallyFound } from "../helpers/wait.ts";

const ALERT = JSON.stringify({ source: "probe", title: "short host" });

/** A request as Bun.serve builds it for a given Host header: the URL's authority is the Host. */
function withHost(host: string, path: string, peer: string, init: RequestInit = {}) {
  return setPeerAddress(new Request(`http://${host}${path}`, init), peer);
}

const ingest = (host: string, path: string, peer: string) =>
  withHost(host, path, peer, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: ALERT,
  });

/** Sends raw HTTP/1.1 bytes (a Host header fetch would not let us choose) and reads the answer. */
function rawHttp(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];
  const clock = manualClock();
  const { app } = useTestApp(driver, {
    env: { RATE_LIMIT_IP_PER_MIN: "3", RATE_LIMIT_BURST_PER_SEC: "1000" },
    now: clock.now,
    logs,
  });

  let n = 0;
  for (const host of ["x", "db", "api", "x:1"]) {
    test(`Host: ${host} — routing, limits and the log read the same path`, async () => {
      const peer = `192.0.2.${++n + 10}`;
      const wrong = await app.handle(ingest(host, "/zz/api/v1/alerts/ingest", peer));
      expect(wrong.status, "/zz/… is not the ingest route").toBe(404);
      const id = wrong.headers.get("x-request-id");
      // the access log is written once the answer is sent: wait for that line, not a fixed time
      const line = await eventuallyFound(
        () => logs.find((l) => l.msg === "request" && l.requestId === id),
        "the access-log line of the 404",
      );
      expect(line?.path, "the log names the path that was routed").toBe("/zz/api/v1/alerts/ingest");

      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await app.handle(ingest(host, "/api/v1/alerts/ingest", peer));
        statuses.push(response.status);
        expect(response.headers.get("x-ratelimit-limit"), "the per-IP bucket applies").toBe("3");
      }
      expect(statuses).toEqual([403, 403, 403, 429]);
    });
  }

  test("a GET with a short Host keeps its query and reaches the right route", async () => {
    const response = await app.handle(withHost("x", "/swagger/json?probe=1", "192.0.2.30"));
    expect(response.status).toBe(200);
  });

  test("through a real socket: `Host: x` does not reach ingest from /zz/…", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
    });
    try {
      const answer = await rawHttp(
        server.port as number,
        "POST /zz/api/v1/alerts/ingest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
          `Content-Length: ${ALERT.length}\r\nConnection: close\r\n\r\n${ALERT}`,
      );
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 404 Not Found");
    } finally {
      server.stop(true);
    }
  });
}

/**
 * Bun's HTTP parser answers these itself, before any application code, with an empty body: the
 * app cannot give them the JSON error body (docs/security.md). What is asserted is what matters:
 * a 4xx, the connection closed, never a 500, and the app never reached.
 */
test("requests Bun's parser refuses get its 400/431 and never reach the app", async () => {
  let reached = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      reached++;
      return new Response("reached");
    },
  });
  try {
    const port = server.port as number;
    const head = (extra: string) =>
      `GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;
    const tooLarge = await rawHttp(port, head(`X-Big: ${"a".repeat(20_000)}\r\n`));
    expect(tooLarge.split("\r\n")[0]).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    const control = await rawHttp(port, head("X-Ctl: a\u0001b\r\n"));
    expect(control.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(reached).toBe(0);
  } finally {
    server.stop(true);
  }
});

function trustedProxySuite(driver: DriverName) {
  const { app } = useTestApp(driver, { env: { TRUST_PROXY: "loopback" } });

  test("an IPv6 zone id in a trusted X-Forwarded-For hop is not a 500", async () => {
    for (const hop of ["fe80::1%eth0", "fe80::1%25eth0", "[fe80::1%eth0]"]) {
      const response = await app.handle(
        setPeerAddress(
          new Request("http://localhost/api/v1/alerts/ingest", {
            method: "POST",
            headers: { "content-type": "application/json", "x-forwarded-for": hop },
            body: ALERT,
          }),
          "127.0.0.1",
        ),
      );
      expect(response.status, hop).toBe(403);
      expect(await response.json()).toEqual({ error: "IP not allowed" });
    }
  });
}

describeEachDriver("request path whatever the Host (security)", suite);
describeEachDriver("client address behind a proxy (security)", trustedProxySuite);
