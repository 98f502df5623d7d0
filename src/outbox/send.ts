import { signedHeaders } from "./signer.ts";
import { assertSafeTarget, type Resolve, UnsafeUrlError } from "./ssrf.ts";

export type SendResult =
  | { kind: "delivered"; status: number }
  | { kind: "failed"; status?: number; error: string }
  /** cut short by shutdown: not an attempt the receiver can be blamed for */
  | { kind: "aborted" };

export interface SendInput {
  url: string;
  /** the signing secrets: the current one, then the previous one during a rotation's grace */
  secrets: string[];
  webhookId: string;
  payload: unknown;
  timeoutMs: number;
  allowPrivate: boolean;
  resolve?: Resolve;
  /** aborted when the service stops and its grace period is over */
  signal: AbortSignal;
}

/** How much of a failing receiver's answer is kept in the delivery log. */
const ERROR_BODY_CHARS = 200;

/**
 * One signed POST. The target is checked again after DNS resolution first (the address may
 * have changed since the subscription was saved); redirects are reported, never followed, so
 * a public receiver cannot bounce the request to an internal address. Any 2xx is success.
 */
export async function sendWebhook(input: SendInput): Promise<SendResult> {
  if (input.secrets.length === 0) {
    const error = "The signing secret cannot be decrypted (was WEBHOOK_SECRET_KEY changed?)";
    return { kind: "failed", error: `${error}; rotate the webhook's secret` };
  }
  try {
    await assertSafeTarget(input.url, input.allowPrivate, input.resolve);
  } catch (error) {
    if (error instanceof UnsafeUrlError)
      return { kind: "failed", error: `Refused: ${error.message}` };
    throw error;
  }
  const body = JSON.stringify(input.payload);
  const timeout = AbortSignal.timeout(input.timeoutMs);
  try {
    const response = await fetch(input.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "orgit-webhooks/1",
        ...signedHeaders(input.secrets, input.webhookId, body),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.any([timeout, input.signal]),
    });
    const text = await readSnippet(response);
    if (response.status >= 200 && response.status < 300) {
      return { kind: "delivered", status: response.status };
    }
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location") ?? "none";
      return {
        kind: "failed",
        status: response.status,
        error: `HTTP ${response.status}: redirect not followed (location: ${location.slice(0, ERROR_BODY_CHARS)})`,
      };
    }
    const snippet = text.slice(0, ERROR_BODY_CHARS);
    return {
      kind: "failed",
      status: response.status,
      error: snippet ? `HTTP ${response.status}: ${snippet}` : `HTTP ${response.status}`,
    };
  } catch (error) {
    if (input.signal.aborted) return { kind: "aborted" };
    if (timeout.aborted) return { kind: "failed", error: `Timed out after ${input.timeoutMs} ms` };
    return { kind: "failed", error: `Could not connect: ${(error as Error).message}` };
  }
}

/**
 * The first bytes of the answer, for the log; the rest is cancelled, so a receiver answering
 * with an endless body costs neither memory nor the full timeout.
 */
async function readSnippet(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // a broken body does not change the verdict, which the status already gave
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
