import { deriveAesKey, isSealed, open, type SealedValue, seal } from "../auth/cipher.ts";

/**
 * Webhook signing secrets at rest (docs/security.md, "Webhook secrets"): sealed with the
 * service's cipher (src/auth/cipher.ts) under a key derived from WEBHOOK_SECRET_KEY, bound to
 * the subscription's id. A database backup alone cannot sign a delivery. Outside production,
 * without WEBHOOK_SECRET_KEY, a fixed development key is used (config refuses that in
 * production). During a key rotation WEBHOOK_SECRET_KEY_PREVIOUS opens what the old key sealed;
 * everything is sealed under the current key, and `stale` tells which values to seal again.
 */
const DEVELOPMENT_KEY = "orgit development webhook key: not a secret, never for production";
const INFO = "orgit webhook signing secret v1";
const KEY_ID_INFO = "orgit webhook signing key id v1";
const SALT = "webhook_subscriptions";

/** A sealed secret; `k` names the key it was sealed under (values sealed before it have none). */
export type SealedSecret = SealedValue & { k?: string };

interface BoxKey {
  key: Promise<CryptoKey>;
  /** 16 hex digits derived from the key material (not the key): which key sealed a value */
  id: Promise<string>;
}

function boxKey(material: string): BoxKey {
  return { key: deriveAesKey(material, SALT, INFO), id: keyId(material) };
}

async function keyId(material: string): Promise<string> {
  const raw = new TextEncoder().encode(material);
  const base = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveBits"]);
  const params = {
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(),
    info: new TextEncoder().encode(KEY_ID_INFO),
  };
  const bits = new Uint8Array(await crypto.subtle.deriveBits(params, base, 64));
  return [...bits].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class WebhookSecretBox {
  private readonly current: BoxKey;
  private readonly previous: BoxKey | undefined;

  constructor(keyMaterial: string | undefined, previousKeyMaterial?: string) {
    this.current = boxKey(keyMaterial ?? DEVELOPMENT_KEY);
    this.previous = previousKeyMaterial ? boxKey(previousKeyMaterial) : undefined;
  }

  /** the current key's id, as `k` of what it seals */
  keyId(): Promise<string> {
    return this.current.id;
  }

  async seal(subscriptionId: string, secret: string): Promise<SealedSecret> {
    const sealed = await seal(await this.current.key, secret, `webhook:${subscriptionId}`);
    return { ...sealed, k: await this.current.id };
  }

  /** The secret, or undefined when no key of this box reads it (another key, a damaged row). */
  async open(subscriptionId: string, sealed: unknown): Promise<string | undefined> {
    if (!isSealed(sealed)) return undefined;
    for (const candidate of this.previous ? [this.current, this.previous] : [this.current]) {
      try {
        const secret = await open(await candidate.key, sealed, `webhook:${subscriptionId}`);
        if (typeof secret === "string") return secret;
      } catch {
        // not this key: try the next
      }
    }
    return undefined;
  }

  /** Whether a stored value is not (known to be) sealed under the current key. */
  async stale(sealed: unknown): Promise<boolean> {
    return isSealed(sealed) && (sealed as SealedSecret).k !== (await this.current.id);
  }
}

let developmentBox: WebhookSecretBox | undefined;

/**
 * What a delivery is signed with: the current secret (a legacy row's clear one until it is
 * sealed), then the previous one while the last rotation's grace lasts.
 */
export async function signingSecrets(
  box: WebhookSecretBox | undefined,
  claim: {
    subscriptionId: string;
    secret: string | null;
    secretSealed: unknown;
    previousSecretSealed: unknown;
    previousSecretUntil: Date | null;
  },
  now: Date,
): Promise<string[]> {
  developmentBox ??= new WebhookSecretBox(undefined);
  const opener = box ?? developmentBox;
  const current =
    (await opener.open(claim.subscriptionId, claim.secretSealed)) ?? claim.secret ?? undefined;
  const graceLasts = claim.previousSecretUntil !== null && claim.previousSecretUntil > now;
  const previous = graceLasts
    ? await opener.open(claim.subscriptionId, claim.previousSecretSealed)
    : undefined;
  return [current, previous].filter((secret): secret is string => secret !== undefined);
}
