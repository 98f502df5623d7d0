import { Elysia, t } from "elysia";
import {
  AddTicketCommentDocument,
  CreateTicketDocument,
  GetTicketDocument,
  ListTicketCommentsDocument,
  ListTicketsDocument,
  UpdateTicketDocument,
} from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, ErrorSchema } from "../../http/error-schemas.ts";
import { idempotent } from "../../http/idempotency.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, oneOf, PageQuery } from "../../http/list-schemas.ts";
import {
  expectedVersion,
  IfMatchHeader,
  restPaths,
  versionErrorResponses,
  withETag,
} from "../../http/versions.ts";
import { ticketJson } from "./json.ts";
import {
  CommentBody,
  IdempotencyHeader,
  IdParams,
  TicketComment,
  TicketCommentList,
  TicketJson,
  TicketRecord,
  UpdateTicketBody,
} from "./models.ts";
import { DESCRIPTION_LENGTH, TICKET_PRIORITIES, TICKET_STATUSES, TITLE_LENGTH } from "./service.ts";

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

const badRequest = t.Composite([ErrorSchema], {
  description: "Validation failed (details name each field), or malformed JSON",
});

/** GET and POST /api/v1/tickets over the ListTickets / CreateTicket operations. */
export const ticketRoutes = ({ auth, idempotency, publicBaseUrl }: RestDeps) =>
  new Elysia({ prefix: "/api/v1", tags: ["tickets"] })
    .use(apiKeyAuth(auth))
    .get(
      "/tickets",
      async ({ query, run, request, set }) => {
        const { tickets } = await run(ListTicketsDocument, query);
        // the operation names the fields as the REST list does (ListTickets' aliases)
        return listAnswer(publicBaseUrl, request, set.headers, tickets);
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
          return { status: 201, body: createTicket };
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

const { 404: missing, 409: conflict, 412: stale } = versionErrorResponses;

/**
 * The ticket extension routes (docs/api.md): one ticket, its changes and comments, over the
 * GetTicket / UpdateTicket / ListTicketComments / AddTicketComment operations.
 */
export const ticketExtensionRoutes = ({
  auth,
  idempotency,
  publicBaseUrl,
}: Pick<RestDeps, "auth" | "idempotency" | "publicBaseUrl">) =>
  new Elysia({ prefix: "/api/v1", tags: ["extensions"] })
    .use(apiKeyAuth(auth))
    .get(
      "/tickets/:id",
      async ({ params, run, set }) =>
        withETag(set, ticketJson((await run(GetTicketDocument, { id: params.id })).ticket)),
      {
        params: IdParams,
        response: { 200: TicketRecord, 404: missing, ...authErrorResponses },
        detail: {
          summary: "Read a ticket",
          description:
            "Scope tickets:read. Without the permission tickets.view_all only tickets the key " +
            'owner created; any other id is 404. `ETag: "<version>"`.',
        },
      },
    )
    .patch(
      "/tickets/:id",
      async ({ params, body, headers, run, set }) => {
        const { updateTicket } = await restPaths(
          run(UpdateTicketDocument, {
            id: params.id,
            input: body,
            expectedVersion: expectedVersion(headers["if-match"]),
          }),
        );
        return withETag(set, ticketJson(updateTicket));
      },
      {
        params: IdParams,
        body: UpdateTicketBody,
        headers: t.Object(IfMatchHeader),
        response: {
          200: TicketRecord,
          400: badRequest,
          404: missing,
          409: conflict,
          412: stale,
          ...authErrorResponses,
        },
        detail: {
          summary: "Update a ticket",
          description:
            "Scope tickets:write. With tickets.manage: any field of any ticket the key sees, " +
            "assigneeId included. Without it: only tickets the key owner created, and only " +
            "title, description, priority and status → closed (403 otherwise). A status move " +
            "outside the allowed ones is 409 `Invalid status transition: <from> → <to>`. " +
            "`If-Match` with another version → 412 `Version mismatch`. Emits ticket.updated.",
        },
      },
    )
    .get(
      "/tickets/:id/comments",
      async ({ params, query, run, request, set }) => {
        const page = await run(ListTicketCommentsDocument, { ticketId: params.id, ...query });
        return listAnswer(publicBaseUrl, request, set.headers, page.ticketComments);
      },
      {
        params: IdParams,
        query: t.Object(PageQuery),
        response: { 200: TicketCommentList, 400: badRequest, 404: missing, ...authErrorResponses },
        detail: {
          summary: "List a ticket's comments",
          description:
            "Scope tickets:read, on a ticket the key can read. Newest first. `after` (the " +
            'Link header\'s rel="next") pages by cursor instead of offset.',
        },
      },
    )
    .post(
      "/tickets/:id/comments",
      (ctx) =>
        idempotent(idempotency, ctx, async () => {
          const { addTicketComment } = await ctx.run(AddTicketCommentDocument, {
            ticketId: ctx.params.id,
            body: ctx.body.body,
          });
          return { status: 201, body: { ...addTicketComment } };
        }),
      {
        params: IdParams,
        body: CommentBody,
        headers: t.Object(IdempotencyHeader),
        response: {
          201: TicketComment,
          400: badRequest,
          404: missing,
          409: t.Composite([ErrorSchema], {
            description: "Idempotency-Key reused with a different body, or still in progress",
          }),
          ...authErrorResponses,
        },
        detail: {
          summary: "Comment on a ticket",
          description:
            "Scope tickets:write, on a ticket the key can read. 1 to 10,000 characters. " +
            "Emits ticket.commented.",
        },
      },
    );
