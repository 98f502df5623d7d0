import type { Executor } from "../../db/client.ts";
import type { WebhookSecretBox } from "../../outbox/secret-box.ts";
import { newWebhookSecret } from "../../outbox/signer.ts";
import { Problems } from "../../validation.ts";
import { WEBHOOK_LIMITS } from "./input.ts";
import * as q from "./queries.ts";

/** Signing-secret rotation and the sealing of clear secrets (docs/webhooks.md, docs/security.md). */

export function checkGraceHours(gracePeriodHours: number | null | undefined): number {
  const hours = gracePeriodHours ?? WEBHOOK_LIMITS.defaultGraceHours;
  new Problems()
    .check(
      Number.isInteger(hours) && hours >= 0 && hours <= WEBHOOK_LIMITS.maxGraceHours,
      ["gracePeriodHours"],
      `Must be a whole number of hours from 0 to ${WEBHOOK_LIMITS.maxGraceHours}`,
    )
    .throwIfAny();
  return hours;
}

/** The current secret becomes the previous one until `now + hours` (0: dropped at once). */
export async function rotateSecret(
  db: Executor,
  box: WebhookSecretBox,
  now: Date,
  subscription: { id: string; organizationId: string },
  hours: number,
) {
  const secret = newWebhookSecret();
  const until = hours > 0 ? new Date(now.getTime() + hours * 3_600_000) : null;
  await q.rotateSecret(db, subscription.organizationId, subscription.id, {
    secretSealed: await box.seal(subscription.id, secret),
    until,
    at: now,
  });
  return { id: subscription.id, secret, previousSecretExpiresAt: until };
}

/**
 * Seals the clear secrets of rows written before secrets were encrypted, 100 at a time; the
 * conditional update makes instances starting together harmless. Answers how many were sealed.
 */
export async function sealClearSecrets(db: Executor, box: WebhookSecretBox): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await q.clearSecrets(db, 100);
    for (const row of rows) {
      const secret = row.secret as string;
      await q.sealClearSecret(db, row.id, secret, await box.seal(row.id, secret));
    }
    sealed += rows.length;
    if (rows.length < 100) return sealed;
  }
}
