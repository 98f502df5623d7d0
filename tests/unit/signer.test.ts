import { expect, setSystemTime, test } from "bun:test";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { newWebhookSecret, signedHeaders } from "../../src/outbox/signer.ts";

/**
 * Webhook signing secrets and the Standard Webhooks headers (src/outbox/signer.ts), checked
 * the way a receiver checks them: with the `standardwebhooks` library and by hand (HMAC-SHA256
 * of `id.timestamp.body` under the secret's bytes).
 */
test("a new secret is whsec_ + base64 of 32 random bytes", () => {
  const secrets = Array.from({ length: 20 }, newWebhookSecret);
  for (const secret of secrets) {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
  }
  expect(new Set(secrets).size, "never the same twice").toBe(20);
});

test("the headers verify with the standardwebhooks library and by hand", () => {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ type: "project.created", data: { id: "p1", name: "Zoë" } });
  const sentAt = new Date("2031-05-06T07:08:09.987Z");
  const headers = signedHeaders(secret, "msg_1", body, sentAt);
  expect(Object.keys(headers).sort()).toEqual([
    "webhook-id",
    "webhook-signature",
    "webhook-timestamp",
  ]);
  expect(headers["webhook-id"]).toBe("msg_1");
  expect(headers["webhook-timestamp"], "whole seconds, rounded down").toBe(
    String(Math.floor(sentAt.getTime() / 1000)),
  );
  const expected = createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
    .update(`msg_1.${headers["webhook-timestamp"]}.${body}`)
    .digest("base64");
  expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  setSystemTime(sentAt);
  try {
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  } finally {
    setSystemTime();
  }
});

test("without a send time, the headers carry the current time", () => {
  const now = new Date("2032-01-02T03:04:05.678Z");
  setSystemTime(now);
  try {
    const headers = signedHeaders(newWebhookSecret(), "msg_2", "{}");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
  } finally {
    setSystemTime();
  }
});
