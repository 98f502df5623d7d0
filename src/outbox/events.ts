import type { Static, TSchema } from "@sinclair/typebox";
import type { Executor } from "../db/client.ts";
import { recordEvent } from "./outbox.ts";

/** What a feature declares about one webhook event type (docs/webhooks.md). */
export interface WebhookEventDeclaration<Payload extends TSchema = TSchema> {
  /** `<resource>.<what happened>`, as subscriptions list it */
  type: string;
  /** the scope a key needs to read the resource the event carries */
  readScope: string;
  /** the `data` of the delivered body */
  payload: Payload;
}

export interface WebhookEvent<Payload extends TSchema = TSchema>
  extends WebhookEventDeclaration<Payload> {
  /** Records the event through `tx`, the transaction of the change (see recordEvent). */
  record(
    tx: Executor,
    input: { organizationId: string; data: Static<Payload>; now?: Date },
  ): Promise<string | null>;
}

/** A webhook event type, typed by its payload schema, declared once in its feature. */
export function defineWebhookEvent<Payload extends TSchema>(
  declaration: WebhookEventDeclaration<Payload>,
): WebhookEvent<Payload> {
  return {
    ...declaration,
    record: (tx, input) => recordEvent(tx, { ...input, type: declaration.type }),
  };
}
