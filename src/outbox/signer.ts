import { Webhook } from "standardwebhooks";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks format). */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The Standard Webhooks headers for one send. `webhook-id` stays the same across retries (the
 * receiver's deduplication key); the timestamp is the wall-clock send time, because receivers
 * refuse signatures more than a few minutes old or in the future.
 */
export function signedHeaders(
  secret: string,
  webhookId: string,
  body: string,
  sentAt: Date = new Date(),
): Record<string, string> {
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(webhookId, sentAt, body),
  };
}
