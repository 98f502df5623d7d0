import { t } from "elysia";
import { envelope, oneOf, ResponseInt } from "../../http/list-schemas.ts";
import { COMMENT_LENGTH } from "./comments.ts";
import { DESCRIPTION_LENGTH, TICKET_PRIORITIES, TICKET_STATUSES, TITLE_LENGTH } from "./service.ts";

/** Typebox schemas of the ticket routes (docs/api.md); creation's body is in rest.ts. */

const Uuid = t.String({ format: "uuid" });
const Timestamp = t.String({ format: "date-time" });

/** Interface A's ticket JSON (docs/api.md): snake_case, unlike every other record. */
export const TicketJson = t.Object(
  {
    id: t.String({ format: "uuid" }),
    title: t.String(),
    status: oneOf(TICKET_STATUSES),
    priority: oneOf(TICKET_PRIORITIES),
    equipment_id: t.Nullable(t.String({ format: "uuid" })),
    created_by: t.String({ format: "uuid", description: "the key owner's user id" }),
    created_at: t.String({ format: "date-time" }),
  },
  { title: "Ticket" },
);

/** One ticket as GET /tickets/{id} answers it: snake_case like every ticket, plus description and version. */
export const TicketRecord = t.Object(
  {
    id: Uuid,
    title: t.String(),
    description: t.String(),
    status: oneOf(TICKET_STATUSES),
    priority: oneOf(TICKET_PRIORITIES),
    equipment_id: t.Nullable(Uuid),
    assignee_id: t.Nullable(t.String({ format: "uuid", description: "the member working on it" })),
    created_by: t.String({ format: "uuid", description: "the key owner's user id" }),
    created_at: Timestamp,
    updated_at: t.String({ format: "date-time", description: "when a field last changed" }),
    version: ResponseInt({ minimum: 1, description: "+1 per change; the ETag" }),
  },
  { title: "TicketRecord" },
);

export const UpdateTicketBody = t.Object(
  {
    title: t.Optional(
      t.String({ description: `${TITLE_LENGTH.min} to ${TITLE_LENGTH.max} characters` }),
    ),
    description: t.Optional(
      t.String({
        description: `${DESCRIPTION_LENGTH.min} to ${DESCRIPTION_LENGTH.max} characters`,
      }),
    ),
    priority: t.Optional(oneOf(TICKET_PRIORITIES)),
    status: t.Optional(
      oneOf(
        TICKET_STATUSES,
        "open → in_progress | resolved | closed; in_progress → open | resolved | closed; resolved → in_progress | closed; closed is final",
      ),
    ),
    assigneeId: t.Optional(
      t.Nullable(
        t.String({
          format: "uuid",
          description: "a member with an administrator or technician seat; null unassigns",
        }),
      ),
    ),
  },
  { title: "UpdateTicket", description: "at least one field" },
);

export const TicketComment = t.Object(
  {
    id: Uuid,
    ticketId: Uuid,
    authorId: t.String({ format: "uuid", description: "the key owner who wrote it" }),
    body: t.String(),
    createdAt: Timestamp,
  },
  { title: "TicketComment" },
);
export const TicketCommentList = envelope(TicketComment, "TicketCommentList");

export const CommentBody = t.Object(
  {
    body: t.String({ description: `${COMMENT_LENGTH.min} to ${COMMENT_LENGTH.max} characters` }),
  },
  { title: "AddTicketComment" },
);

export const IdParams = t.Object({ id: t.String({ description: "ticket id (uuid)" }) });
export const IdempotencyHeader = {
  "idempotency-key": t.Optional(
    t.String({ description: "replays the first response for 24 h (same body)" }),
  ),
};
