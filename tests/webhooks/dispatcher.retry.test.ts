import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { DEFAULT_BACKOFF_MS, retryDelay } from "../../src/outbox/dispatcher.ts";
import { newWebhookSecret, signedHeaders } from "../../src/outbox/signer.ts";

describe("webhook retry schedule", () => {
  const fixed = (random: number) => ({
    backoffMs: DEFAULT_BACKOFF_MS,
    jitter: 0.2,
    random: () => random,
  });

  test("follows the contract: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, fixed(0.5)));
    expect(delays).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(retryDelay(8, fixed(0.5)), "eight attempts in all").toBeUndefined();
  });

  test("jitter spreads each delay by up to ±20 %", () => {
    expect(retryDelay(1, fixed(0))).toBe(4_000);
    expect(retryDelay(1, fixed(0.999999))).toBe(6_000);
    expect(retryDelay(4, fixed(0))).toBe(5_760_000);
  });
});

describe("Standard Webhooks signing", () => {
  test("a new secret is whsec_ + base64 of 32 bytes, different each time", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  test("headers verify with the standardwebhooks library; a changed body does not", () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: "project.created", timestamp: "t", data: {} });
    const headers = signedHeaders(secret, "msg-1", body);
    expect(headers["webhook-id"]).toBe("msg-1");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});
