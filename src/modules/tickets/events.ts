import { Type as t } from "@sinclair/typebox";
import { defineWebhookEvent } from "../../outbox/events.ts";

/** The ticket as `GET /api/v1/tickets/{id}` answers it (its OpenAPI component, snake_case; docs/webhooks.md). */
const Ticket = t.Unsafe<Record<string, unknown>>({
  $ref: "#/components/schemas/TicketRecord",
  description: "the ticket, as GET answers it",
});
const Changes = t.Record(
  t.String(),
  t.Object({ from: t.Unknown(), to: t.Unknown() }, { title: "FieldChange" }),
);
const Comment = t.Unsafe<Record<string, unknown>>({
  $ref: "#/components/schemas/TicketComment",
  description: "the new comment",
});

const event = <P extends Parameters<typeof defineWebhookEvent>[0]["payload"]>(
  type: string,
  payload: P,
) => defineWebhookEvent({ type, readScope: "tickets:read", payload });

/** The webhook events the tickets feature emits (docs/webhooks.md). */
export const ticketEvents = {
  created: event("ticket.created", t.Object({ ticket: Ticket })),
  /** with each changed field's value before and after */
  updated: event("ticket.updated", t.Object({ ticket: Ticket, changes: Changes })),
  commented: event("ticket.commented", t.Object({ ticket: Ticket, comment: Comment })),
};
