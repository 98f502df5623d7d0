import { requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { numberedPage, type PageNumberArgs, pageNumberWindow } from "../../db/paging.ts";
import { ApiError, notFound } from "../../errors.ts";
import type { CreateWebhookInput, UpdateWebhookInput } from "../../generated/schema.ts";
import type { WebhookEventDeclaration } from "../../outbox/events.ts";
import { WEBHOOK_CHANNEL } from "../../outbox/outbox.ts";
import { WebhookSecretBox } from "../../outbox/secret-box.ts";
import { newWebhookSecret } from "../../outbox/signer.ts";
import type { Resolve } from "../../outbox/ssrf.ts";
import { isUuid, Problems } from "../../validation.ts";
import { checkWebhookInput, mayReceive, WEBHOOK_LIMITS } from "./input.ts";
import * as q from "./queries.ts";
import { checkGraceHours, resealSecrets, rotateSecret, sealClearSecrets } from "./secrets.ts";

export { WEBHOOK_LIMITS } from "./input.ts";

const webhookJson = (row: q.SubscriptionRow) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  active: row.active,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const deliveryJson = (row: q.DeliveryRow, now: Date) => ({
  id: row.id,
  messageId: row.id,
  webhookId: row.id, // deprecated alias of messageId
  subscriptionId: row.subscriptionId,
  eventId: row.eventId,
  eventType: row.eventType,
  // a live lease means an instance is sending it right now
  status:
    row.status === "pending" && row.leaseUntil && row.leaseUntil > now ? "sending" : row.status,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  lastAttemptAt: row.lastAttemptAt,
  nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
  deliveredAt: row.deliveredAt,
  createdAt: row.createdAt,
});

const webhookNotFound = () => notFound("Webhook not found");

/**
 * Webhook subscriptions of the caller's organization and their delivery log. Reading needs
 * webhooks:read, changing webhooks:write, and the owner's role needs webhooks.manage for
 * both (a subscription's target and log are administration data). Any plan may use it.
 */
export class WebhookService {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    /** the event types a subscription may choose: every feature's (src/features.ts) */
    private readonly events: readonly WebhookEventDeclaration[],
    private readonly allowPrivate: boolean,
    private readonly resolve?: Resolve,
    private readonly box: WebhookSecretBox = new WebhookSecretBox(undefined),
  ) {}

  private eventTypes() {
    return this.events.map((event) => event.type);
  }

  async list(principal: Principal, args: PageNumberArgs) {
    allow(principal, "webhooks:read");
    const window = pageNumberWindow(args);
    const org = principal.organization.id;
    const db = this.database.db;
    const [rows, total] = await Promise.all([
      q.listSubscriptions(db, org, window),
      q.countSubscriptions(db, org),
    ]);
    return { data: rows.map(webhookJson), pagination: numberedPage(window, rows, total) };
  }

  async get(principal: Principal, id: string) {
    allow(principal, "webhooks:read");
    return webhookJson(await this.owned(principal, id));
  }

  async create(principal: Principal, input: CreateWebhookInput) {
    allow(principal, "webhooks:write");
    const problems = new Problems();
    if (input.url == null) problems.add(["input", "url"], "Required");
    if (input.events == null) problems.add(["input", "events"], "Required");
    const values = await checkWebhookInput(
      problems,
      input,
      this.eventTypes(),
      this.allowPrivate,
      this.resolve,
    );
    problems.throwIfAny();
    mayReceive(principal, this.events, values.events);
    const organizationId = principal.organization.id;
    const at = this.now();
    const secret = newWebhookSecret();
    const id = crypto.randomUUID();
    const secretSealed = await this.box.seal(id, secret);
    const row = await this.database.db.transaction(async (tx) => {
      await q.lockOrganization(tx, organizationId);
      if ((await q.countSubscriptions(tx, organizationId)) >= WEBHOOK_LIMITS.perOrganization) {
        throw new ApiError(
          "CONFLICT",
          `An organization can have at most ${WEBHOOK_LIMITS.perOrganization} webhooks; delete one first`,
        );
      }
      return q.insertSubscription(tx, {
        id,
        organizationId,
        url: values.url as string,
        events: values.events as string[],
        secretSealed,
        at,
      });
    });
    const { url, events, active, createdAt } = row;
    return { id, url, events, active, createdAt, secret };
  }

  /**
   * A new signing secret, answered once. During `gracePeriodHours` (24 by default, 0 to 168)
   * deliveries carry a signature with each secret, the new one first; then only the new one.
   */
  async rotateSecret(principal: Principal, id: string, gracePeriodHours?: number | null) {
    allow(principal, "webhooks:write");
    const hours = checkGraceHours(gracePeriodHours);
    const subscription = await this.owned(principal, id);
    return rotateSecret(this.database.db, this.box, this.now(), subscription, hours);
  }

  /** Seals the clear secrets of rows from before secrets were encrypted (run at start). */
  sealClearSecrets(): Promise<number> {
    return sealClearSecrets(this.database.db, this.box);
  }

  /** After a WEBHOOK_SECRET_KEY rotation: every secret sealed again under the current key. */
  resealSecrets() {
    return resealSecrets(this.database.db, this.box);
  }

  async update(principal: Principal, id: string, input: UpdateWebhookInput) {
    allow(principal, "webhooks:write");
    const problems = new Problems();
    const values = await checkWebhookInput(
      problems,
      input,
      this.eventTypes(),
      this.allowPrivate,
      this.resolve,
    );
    problems.check(
      values.url !== undefined || values.events !== undefined || values.active !== undefined,
      ["input"],
      "Give url, events, active or several",
    );
    problems.throwIfAny();
    mayReceive(principal, this.events, values.events);
    await this.owned(principal, id);
    const changes: Parameters<typeof q.updateSubscription>[3] = {
      ...values,
      updatedAt: this.now(),
    };
    // re-enabling starts a clean slate: no old failing streak, no stale reason
    if (values.active === true)
      Object.assign(changes, { disabledReason: null, failingSince: null });
    if (values.active === false) changes.disabledReason = null;
    const row = await q.updateSubscription(
      this.database.db,
      principal.organization.id,
      id,
      changes,
    );
    if (!row) throw webhookNotFound();
    return webhookJson(row);
  }

  async delete(principal: Principal, id: string) {
    allow(principal, "webhooks:write");
    const row = isUuid(id)
      ? await q.deleteSubscription(this.database.db, principal.organization.id, id)
      : undefined;
    if (!row) throw webhookNotFound();
    return { success: true, message: "Webhook deleted" };
  }

  async deliveries(principal: Principal, id: string, args: PageNumberArgs) {
    allow(principal, "webhooks:read");
    const window = pageNumberWindow(args);
    const subscription = await this.owned(principal, id);
    const db = this.database.db;
    const [rows, total] = await Promise.all([
      q.listDeliveries(db, subscription.id, window),
      q.countDeliveries(db, subscription.id),
    ]);
    const now = this.now();
    const pagination = numberedPage(window, rows, total);
    return { data: rows.map((r) => deliveryJson(r, now)), pagination };
  }

  /** Queues one more attempt of a delivery now, whatever its state, unless one is in flight. */
  async retryDelivery(principal: Principal, id: string, deliveryId: string) {
    allow(principal, "webhooks:write");
    const subscription = await this.owned(principal, id);
    const db = this.database.db;
    const found = isUuid(deliveryId)
      ? await q.findDelivery(db, subscription.id, deliveryId)
      : undefined;
    if (!found) throw notFound("Delivery not found");
    if (!subscription.active) {
      throw new ApiError(
        "CONFLICT",
        "The webhook is disabled; enable it (PATCH active: true) first",
      );
    }
    const now = this.now();
    const queued = await q.requeueDelivery(db, found.id, now);
    if (!queued) {
      throw new ApiError("CONFLICT", "An attempt of this delivery is in flight; try again shortly");
    }
    await this.database.notify(WEBHOOK_CHANNEL, found.id);
    return deliveryJson({ ...queued, eventType: found.eventType }, now);
  }

  private async owned(principal: Principal, id: string) {
    const row = isUuid(id)
      ? await q.findSubscription(this.database.db, principal.organization.id, id)
      : undefined;
    if (!row) throw webhookNotFound();
    return row;
  }
}

function allow(principal: Principal, scope: "webhooks:read" | "webhooks:write") {
  requireScope(principal, scope);
  requirePermission(principal, "webhooks.manage");
}
