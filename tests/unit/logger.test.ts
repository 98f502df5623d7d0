import { afterEach, expect, test } from "bun:test";
import fc from "fast-check";
import { createLogger } from "../../src/logger.ts";

const original = { log: console.log, error: console.error };
afterEach(() => {
  console.log = original.log;
  console.error = original.error;
});

test("a line is one JSON object: time, level, msg, then the fields as given", () => {
  const lines: string[] = [];
  const logger = createLogger("info", (line) => lines.push(line));
  logger.info("request", { status: 200, path: '/a"b', skipped: undefined });
  logger.info("plain");
  logger.debug("below the level");
  expect(lines).toHaveLength(2);
  const [first, second] = lines.map((line) => JSON.parse(line));
  expect(Object.keys(first)).toEqual(["time", "level", "msg", "status", "path"]);
  expect(first).toMatchObject({ level: "info", msg: "request", status: 200, path: '/a"b' });
  expect(new Date(first.time).toISOString()).toBe(first.time);
  expect(Object.keys(second)).toEqual(["time", "level", "msg"]);
});

test("stdout lines are batched; a warning first writes what is held, so order is kept", () => {
  const written: string[] = [];
  console.log = (text: string) => written.push(`out:${text}`);
  console.error = (text: string) => written.push(`err:${text}`);
  const logger = createLogger("info");
  logger.info("one");
  logger.info("two");
  expect(written, "held until the batch is written").toEqual([]);
  logger.warn("three");
  expect(written.map((w) => w.replace(/"time":"[^"]+",/g, ""))).toEqual([
    'out:{"level":"info","msg":"one"}\n{"level":"info","msg":"two"}',
    'err:{"level":"warn","msg":"three"}',
  ]);
  logger.info("four");
  logger.flush?.();
  expect(written).toHaveLength(3);
  expect(written[2]).toContain('"msg":"four"');
});

test("the access log's line is the text info('request', fields) writes, secrets redacted alike", () => {
  const written = { request: [] as string[], info: [] as string[] };
  let into = written.request;
  const logger = createLogger("info", (line) => into.push(line.replace(/"time":"[^"]+"/, "")));
  const client = fc.oneof(
    fc.string({ unit: "grapheme" }),
    fc.string(),
    // every marker redactSecrets knows, inside and at the ends of a value
    fc.constantFrom(
      "orgit_0123456789abcdefABCDEF",
      'x"orgit_0123456789abcdefXYZ"',
      "whsec_abc+/=",
      "Bearer abc.def",
      "bearer\tsecret",
      "/install/tok3n?x=1",
      "/invite/abc/def",
      'params: "a\\"b"',
      "ends with Bearer",
      "Bearer",
      "\\",
      '"',
      "\u2028\u0000",
      // text written with quotes only (a request id's characters), markers' letters included
      "0f8e2a1c-1234-4abc-8def-0123456789ab",
      "Bearer-1.2:3",
      "orgit-0123456789abcdefABCDEF",
      "",
    ),
  );
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const fields = fc.record({
    requestId: optional(client),
    method: client,
    path: client,
    status: fc.integer({ min: 100, max: 599 }),
    durationMs: optional(fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100)),
    ip: optional(fc.constantFrom("127.0.0.1", "2001:db8::1", "203.0.113.7")),
    organizationId: optional(fc.uuid()),
    apiKeyId: optional(fc.uuid()),
    operator: optional(fc.constant(true as const)),
    userAgent: optional(client),
  });
  fc.assert(
    fc.property(fields, (f) => {
      into = written.request;
      logger.request(f);
      into = written.info;
      logger.info("request", { ...f });
      expect(written.request.at(-1)).toBe(written.info.at(-1) as string);
    }),
    { numRuns: 2_000 },
  );
  // the markers above were there to be redacted: no key survives in either line
  expect(written.request.join("\n")).not.toMatch(/orgit_[0-9A-Za-z]{16,}/);
});

test("the access log's line follows each field from one request to the next", () => {
  const lines: string[] = [];
  const logger = createLogger("info", (line) => lines.push(line.replace(/"time":"[^"]+",/, "")));
  const base = {
    requestId: "a1",
    method: "GET",
    path: "/api/v1/whoami",
    status: 200,
    durationMs: 0.5,
    ip: "192.0.2.1",
    organizationId: "o1",
    apiKeyId: "k1",
    operator: undefined,
    userAgent: "agent/1",
  };
  const changes = [
    {},
    { requestId: "a2" },
    { method: "POST", path: "/api/v1/tickets" },
    { ip: "192.0.2.2", userAgent: "agent/2" },
    { organizationId: "o2", apiKeyId: "k2" },
    { path: "/install/s3cret" },
    {},
  ];
  for (const change of changes) logger.request({ ...base, ...change });
  const expected = changes.map((change) => {
    const f = { ...base, ...change };
    const path = f.path === "/install/s3cret" ? "/install/[redacted]" : f.path;
    return `{"level":"info","msg":"request","requestId":"${f.requestId}","method":"${f.method}","path":"${path}","status":200,"durationMs":0.5,"ip":"${f.ip}","organizationId":"${f.organizationId}","apiKeyId":"${f.apiKeyId}","userAgent":"${f.userAgent}"}`;
  });
  expect(lines).toEqual(expected);
});

test("the access log's line is below the level like any info line", () => {
  const lines: string[] = [];
  const logger = createLogger("warn", (line) => lines.push(line));
  logger.request({
    requestId: "r",
    method: "GET",
    path: "/",
    status: 200,
    durationMs: 1,
    ip: undefined,
    organizationId: undefined,
    apiKeyId: undefined,
    operator: undefined,
    userAgent: undefined,
  });
  expect(lines).toEqual([]);
});
