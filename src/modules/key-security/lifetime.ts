import type { AuditEvent } from "../../auth/audit-trail.ts";
import type { KeyExpiration } from "../../generated/graphql.ts";
import { Problems } from "../../validation.ts";

const DAY_MS = 86_400_000;
/** A policy is a whole number of days, 1 to 3650 (ten years) or none (docs/decisions.md §18). */
export const MAX_POLICY_DAYS = 3650;

/** The latest expiry the organization's policy allows for a key made now; null: no limit. */
export function latestExpiry(maxDays: number | null, now: Date): Date | null {
  return maxDays === null ? null : new Date(now.getTime() + maxDays * DAY_MS);
}

/** True when a key expiring at `expiresAt` (null: never) is longer than the policy allows. */
export function beyondPolicy(expiresAt: Date | null, maxDays: number | null, now: Date): boolean {
  const latest = latestExpiry(maxDays, now);
  if (!latest) return false;
  return expiresAt === null || expiresAt.getTime() > latest.getTime();
}

/** An existing key is flagged when its whole life (creation to expiry) exceeds the policy. */
export function exceedsPolicy(
  key: { createdAt: Date; expiresAt: Date | null },
  maxDays: number | null,
): boolean {
  return beyondPolicy(key.expiresAt, maxDays, key.createdAt);
}

/** Throws 400 Validation failed at `path` when the expiry is beyond the policy. */
export function requireWithinPolicy(
  expiresAt: Date | null,
  maxDays: number | null,
  now: Date,
  path: string[],
): void {
  new Problems()
    .check(
      !beyondPolicy(expiresAt, maxDays, now),
      path,
      `The organization allows API keys of at most ${maxDays} days`,
    )
    .throwIfAny();
}

/** The policy value: null, or a whole number of days from 1 to MAX_POLICY_DAYS. */
export function validatePolicyDays(
  days: number | null | undefined,
  path = ["maxKeyLifetimeDays"],
): number | null {
  const value = days ?? null;
  new Problems()
    .check(
      value === null || (Number.isInteger(value) && value >= 1 && value <= MAX_POLICY_DAYS),
      path,
      `Must be a whole number of days from 1 to ${MAX_POLICY_DAYS}, or null for no maximum`,
    )
    .throwIfAny();
  return value;
}

/** The expiry of a `KeyExpiration` choice made at `now`; null for NEVER. */
export function expiryFrom(choice: KeyExpiration, now: Date): Date | null {
  const at = new Date(now);
  switch (choice) {
    case "NEVER":
      return null;
    case "DAYS_30":
      at.setUTCDate(at.getUTCDate() + 30);
      return at;
    case "DAYS_90":
      at.setUTCDate(at.getUTCDate() + 90);
      return at;
    case "MONTHS_6":
      at.setUTCMonth(at.getUTCMonth() + 6);
      return at;
    case "YEAR_1":
      at.setUTCFullYear(at.getUTCFullYear() + 1);
      return at;
  }
}

const CHOICES: readonly KeyExpiration[] = ["DAYS_30", "DAYS_90", "MONTHS_6", "YEAR_1", "NEVER"];

/** The expiration choices a key made now may take under the policy (the settings form's options). */
export const allowedChoices = (maxDays: number | null, now: Date): KeyExpiration[] =>
  CHOICES.filter((choice) => !beyondPolicy(expiryFrom(choice, now), maxDays, now));

/**
 * The audit event of a policy change, whichever path made it (the settings screen, the
 * operator's setKeyLifetimePolicy or updateOrganization): who (the member, or the operator),
 * the value before and after.
 */
export function policyChangedEvent(
  organizationId: string,
  from: number | null,
  to: number | null,
  by: { userId: string } | "operator",
): AuditEvent {
  return {
    kind: "organization.key_policy_changed",
    organizationId,
    userId: by === "operator" ? null : by.userId,
    detail: { by: by === "operator" ? "operator" : "member", from, to },
  };
}
