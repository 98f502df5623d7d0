import { requireScope } from "../../auth/guard.ts";
import type { Scope } from "../../auth/permissions.ts";
import type { Principal } from "../../auth/principal.ts";
import { PAGE_NUMBER_LIMITS } from "../../db/paging.ts";
import type { UpdateWebhookInput } from "../../generated/schema.ts";
import type { WebhookEventDeclaration } from "../../outbox/events.ts";
import { assertSafeTarget, type Resolve, UnsafeUrlError } from "../../outbox/ssrf.ts";
import type { Problems } from "../../validation.ts";

/** Interface B webhook bounds (docs/decisions.md §8; pagination as for projects). */
export const WEBHOOK_LIMITS = {
  perOrganization: 20,
  urlMaxLength: 2048,
  /** hours the previous secret still signs after a rotation (docs/webhooks.md) */
  defaultGraceHours: 24,
  maxGraceHours: 168,
  ...PAGE_NUMBER_LIMITS,
} as const;

/**
 * Checks the fields that are present; events are de-duplicated, order kept. The URL must be a
 * public target (the SSRF guard resolves its name) unless private targets are allowed.
 */
export async function checkWebhookInput(
  problems: Problems,
  input: UpdateWebhookInput,
  /** every type the features declare (src/features.ts) */
  eventTypes: readonly string[],
  allowPrivate: boolean,
  resolve?: Resolve,
) {
  const url = input.url ?? undefined;
  if (url !== undefined) {
    if (url.length > WEBHOOK_LIMITS.urlMaxLength) {
      problems.add(["input", "url"], `Must be at most ${WEBHOOK_LIMITS.urlMaxLength} characters`);
    } else {
      try {
        await assertSafeTarget(url, allowPrivate, resolve, "accept");
      } catch (error) {
        if (!(error instanceof UnsafeUrlError)) throw error;
        problems.add(["input", "url"], error.message);
      }
    }
  }
  const events = input.events ? [...new Set(input.events)] : undefined;
  if (events !== undefined) {
    problems.check(events.length > 0, ["input", "events"], "Give at least one event");
    input.events?.forEach((event, index) => {
      problems.check(
        eventTypes.includes(event),
        ["input", "events", String(index)],
        `Unknown event "${event}"; one of ${eventTypes.join(", ")}`,
      );
    });
  }
  return { url, events, active: input.active ?? undefined };
}

/**
 * A subscription learns no more than its key could read: `tickets:read` for ticket.*, …
 * Project and webhook events subscribe as they always did, with webhooks:write alone
 * (docs/decisions.md §17.8), so existing keys and subscriptions keep working.
 */
export function mayReceive(
  principal: Principal,
  events: readonly WebhookEventDeclaration[],
  types: string[] | undefined,
) {
  for (const type of types ?? []) {
    const event = events.find((candidate) => candidate.type === type);
    if (event && !/^(project|webhook)\./.test(type)) {
      requireScope(principal, event.readScope as Scope);
    }
  }
}
