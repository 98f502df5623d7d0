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

const UNREADABLE = Symbol("unreadable");

/**
 * After a WEBHOOK_SECRET_KEY rotation (docs/operations.md): seals again under the current key
 * every secret it did not seal, opening it with the previous key, 100 rows at a time in id
 * order; the conditional update leaves a row rotated meanwhile alone. A row no key reads is
 * left as it is and counted. Answers how many rows were sealed again and how many could not be.
 */
export async function resealSecrets(db: Executor, box: WebhookSecretBox) {
  const keyId = await box.keyId();
  const counts = { resealed: 0, unreadable: 0 };
  const again = async (id: string, value: unknown) => {
    if (value == null || !(await box.stale(value))) return value;
    const secret = await box.open(id, value);
    return secret === undefined ? UNREADABLE : box.seal(id, secret);
  };
  for (let after: string | null = null; ; ) {
    const rows = await q.sealedNotUnder(db, keyId, after, 100);
    // the rows of a batch are independent: their updates share the connection pool
    await Promise.all(
      rows.map(async (row) => {
        const secretSealed = await again(row.id, row.secretSealed);
        const previousSecretSealed = await again(row.id, row.previousSecretSealed);
        if (secretSealed === UNREADABLE || previousSecretSealed === UNREADABLE) counts.unreadable++;
        else if (await q.resealRow(db, row.id, row, { secretSealed, previousSecretSealed }))
          counts.resealed++;
      }),
    );
    if (rows.length < 100) return counts;
    after = (rows[rows.length - 1] as { id: string }).id;
  }
}
