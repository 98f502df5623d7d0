import { WebhookVerificationError } from "./errors.js";
import type { WebhookEvent } from "./models.js";
import { webCrypto } from "./web-crypto.js";

export interface VerifyWebhookOptions {
  /** the raw request body, exactly as received (verify before parsing) */
  payload: string | Uint8Array;
  /** the request's headers: `webhook-id`, `webhook-timestamp`, `webhook-signature` */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** the subscription's `whsec_…` secret (from `webhooks.create`) */
  secret: string;
  /** how far `webhook-timestamp` may be from now, in seconds; default 300 */
  toleranceSeconds?: number;
  /** the time to check against; default now */
  now?: Date;
}

const encoder = new TextEncoder();

function header(headers: VerifyWebhookOptions["headers"], name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(" ") : value;
  }
  return undefined;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Checks a delivery's Standard Webhooks signature (`v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, compared in constant time by WebCrypto) and its timestamp, then answers
 * the parsed event. Throws WebhookVerificationError when anything is off.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const id = header(options.headers, "webhook-id");
  const timestamp = header(options.headers, "webhook-timestamp");
  const signatures = header(options.headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      "Missing webhook-id, webhook-timestamp or webhook-signature header",
    );
  }
  const sent = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(sent)) {
    throw new WebhookVerificationError("Invalid webhook-timestamp header");
  }
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (now - sent > tolerance) throw new WebhookVerificationError("Webhook timestamp too old");
  if (sent - now > tolerance) {
    throw new WebhookVerificationError("Webhook timestamp too far in the future");
  }

  const keyBytes = base64Bytes(options.secret.replace(/^whsec_/, ""));
  if (!keyBytes?.length) throw new WebhookVerificationError("Invalid webhook secret");
  const subtle = (await webCrypto()).subtle;
  const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  const body =
    typeof options.payload === "string" ? encoder.encode(options.payload) : options.payload;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);

  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const signature = base64Bytes(value);
    if (signature && (await subtle.verify("HMAC", key, signature, signed))) {
      const text =
        typeof options.payload === "string" ? options.payload : new TextDecoder().decode(body);
      try {
        return JSON.parse(text) as WebhookEvent;
      } catch {
        throw new WebhookVerificationError("Webhook body is not JSON");
      }
    }
  }
  throw new WebhookVerificationError("No matching webhook signature");
}
