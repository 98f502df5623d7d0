import { Webhook } from "standardwebhooks";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks format). */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The Standard Webhooks headers for one send. `webhook-id` stays the same across retries (the
 * receiver's deduplication key); the timestamp is the wall-clock send time, because receivers
 * refuse signatures more than a few minutes old or in the future. With several secrets (a
 * rotation's grace period) `webhook-signature` holds one space-separated `v1,<sig>` per secret,
 * the newest first, as the specification allows: a receiver with either secret verifies it.
 */
export function signedHeaders(
  secrets: string | string[],
  webhookId: string,
  body: string,
  sentAt: Date = new Date(),
): Record<string, string> {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": list
      .map((secret) => new Webhook(secret).sign(webhookId, sentAt, body))
      .join(" "),
  };
}
