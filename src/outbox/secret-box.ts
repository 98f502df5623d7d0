import { deriveAesKey, isSealed, open, type SealedValue, seal } from "../auth/cipher.ts";

/**
 * Webhook signing secrets at rest (docs/security.md, "Webhook secrets"): sealed with the
 * service's cipher (src/auth/cipher.ts) under a key derived from WEBHOOK_SECRET_KEY, bound to
 * the subscription's id. A database backup alone cannot sign a delivery. Outside production,
 * without WEBHOOK_SECRET_KEY, a fixed development key is used (config refuses that in
 * production).
 */
const DEVELOPMENT_KEY = "orgit development webhook key: not a secret, never for production";
const INFO = "orgit webhook signing secret v1";
const SALT = "webhook_subscriptions";

export type SealedSecret = SealedValue;

export class WebhookSecretBox {
  private readonly key: Promise<CryptoKey>;

  constructor(keyMaterial: string | undefined) {
    this.key = deriveAesKey(keyMaterial ?? DEVELOPMENT_KEY, SALT, INFO);
  }

  async seal(subscriptionId: string, secret: string): Promise<SealedSecret> {
    return seal(await this.key, secret, `webhook:${subscriptionId}`);
  }

  /** The secret, or undefined when it cannot be read (another key, a damaged row). */
  async open(subscriptionId: string, sealed: unknown): Promise<string | undefined> {
    if (!isSealed(sealed)) return undefined;
    try {
      const secret = await open(await this.key, sealed, `webhook:${subscriptionId}`);
      return typeof secret === "string" ? secret : undefined;
    } catch {
      return undefined;
    }
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
