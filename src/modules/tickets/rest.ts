import { Elysia, t } from "elysia";
import {
  CreateTicketDocument,
  type CreateTicketMutation,
  ListTicketsDocument,
} from "../../graphql/generated.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { idempotent } from "../../http/idempotency.ts";
import { envelope, oneOf, PageQuery } from "../../http/list-schemas.ts";
import { authErrorResponses, ErrorSchema } from "../../http/openapi.ts";
import { DESCRIPTION_LENGTH, TICKET_PRIORITIES, TICKET_STATUSES, TITLE_LENGTH } from "./service.ts";

/** The seed's ticket JSON: snake_case, unlike every other record. */
const TicketJson = t.Object(
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

const CreateTicketBody = t.Object(
  {
    title: t.String({ description: `${TITLE_LENGTH.min} to ${TITLE_LENGTH.max} characters` }),
    description: t.String({
      description: `${DESCRIPTION_LENGTH.min} to ${DESCRIPTION_LENGTH.max} characters`,
    }),
    priority: t.Optional(oneOf(TICKET_PRIORITIES, "default medium")),
    equipmentId: t.Optional(
      t.String({ format: "uuid", description: "equipment of your organization" }),
    ),
  },
  { title: "CreateTicket" },
);

const toJson = (ticket: CreateTicketMutation["createTicket"]): typeof TicketJson.static => ({
  id: ticket.id,
  title: ticket.title,
  status: ticket.status,
  priority: ticket.priority,
  equipment_id: ticket.equipmentId,
  created_by: ticket.createdBy,
  created_at: ticket.createdAt,
});

const badRequest = t.Composite([ErrorSchema], {
  description: "Validation failed (details name each field), or malformed JSON",
});

/** GET and POST /api/v1/tickets over the ListTickets / CreateTicket operations. */
export const ticketRoutes = ({ auth, idempotency }: RestDeps) =>
  new Elysia({ prefix: "/api/v1", tags: ["tickets"] })
    .use(apiKeyAuth(auth))
    .get(
      "/tickets",
      async ({ query, run }) => {
        const { tickets } = await run(ListTicketsDocument, query);
        return { data: tickets.data.map(toJson), pagination: tickets.pagination };
      },
      {
        query: t.Object({
          ...PageQuery,
          status: t.Optional(oneOf(TICKET_STATUSES)),
          priority: t.Optional(oneOf(TICKET_PRIORITIES)),
        }),
        response: {
          200: envelope(TicketJson, "TicketPage"),
          400: badRequest,
          ...authErrorResponses,
        },
        detail: {
          summary: "List tickets",
          description:
            "Scope tickets:read. Newest first. Without the permission tickets.view_all only " +
            "the tickets the key owner created are listed.",
        },
      },
    )
    .post(
      "/tickets",
      (ctx) =>
        idempotent(idempotency, ctx, async () => {
          const { createTicket } = await ctx.run(CreateTicketDocument, {
            input: ctx.body,
          });
          return { status: 201, body: toJson(createTicket) };
        }),
      {
        body: CreateTicketBody,
        headers: t.Object({
          "idempotency-key": t.Optional(
            t.String({ description: "replays the first response for 24 h (same body)" }),
          ),
        }),
        response: {
          201: TicketJson,
          400: badRequest,
          ...authErrorResponses,
          409: t.Composite([ErrorSchema], {
            description: "Idempotency-Key reused with a different body, or still in progress",
          }),
        },
        detail: {
          summary: "Create a ticket",
          description:
            "Scope tickets:write. Created open, on behalf of the key owner; priority defaults " +
            "to medium. An equipmentId must be equipment of your organization.",
        },
      },
    );
