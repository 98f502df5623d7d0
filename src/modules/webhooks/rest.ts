import { Elysia, t } from "elysia";
import { ApiError, validationFailed } from "../../errors.ts";
import {
  CreateWebhookDocument,
  DeleteWebhookDocument,
  GetWebhookDocument,
  ListWebhookDeliveriesDocument,
  ListWebhooksDocument,
  RetryWebhookDeliveryDocument,
  RotateWebhookSecretDocument,
  UpdateWebhookDocument,
} from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { idempotent } from "../../http/idempotency.ts";
import { listAnswer } from "../../http/links.ts";
import {
  CreatedWebhook,
  Deleted,
  Delivery,
  DeliveryList,
  error,
  errors,
  eventsField,
  IdParams,
  listErrors,
  PageQuery,
  RotatedSecret,
  Webhook,
  WebhookList,
} from "./models.ts";
import { WEBHOOK_LIMITS } from "./service.ts";

type Json<T extends { static: unknown }> = T["static"];

/** Domain validation paths start at the GraphQL `input`; a REST body is that input itself. */
async function restPaths<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== "VALIDATION_FAILED" || !e.details) throw e;
    throw validationFailed(
      e.details.map(({ path, message }) => {
        const rest = path[0] === "input" ? path.slice(1) : path;
        return { path: rest.length > 0 ? rest : ["body"], message };
      }),
    );
  }
}

const access = (scope: string) => `Scope ${scope} and permission webhooks.manage; any plan.`;

/** Interface B webhook subscriptions and delivery log: thin adapters over GraphQL operations. */
export const webhookRoutes = (deps: RestDeps & { eventTypes: readonly string[] }) => {
  const Events = eventsField(deps.eventTypes);
  return new Elysia({ prefix: "/api/webhooks", tags: ["webhooks"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "",
      async ({ run, query, request, set }) =>
        listAnswer(
          deps.publicBaseUrl,
          request,
          set.headers,
          (await run(ListWebhooksDocument, query)).webhooks,
        ),
      {
        query: PageQuery,
        response: { 200: WebhookList, ...listErrors },
        detail: {
          summary: "List webhooks",
          description: `${access("webhooks:read")} Secrets are never shown.`,
        },
      },
    )
    .post(
      "",
      (ctx) => {
        ctx.set.headers["cache-control"] = "no-store"; // the answer carries the signing secret
        return idempotent(deps.idempotency, ctx, async () => {
          const { createWebhook } = await restPaths(
            ctx.run(CreateWebhookDocument, {
              input: ctx.body,
            }),
          );
          return { status: 201, body: createWebhook };
        });
      },
      {
        body: t.Object({
          url: t.String({ description: "https URL of a public receiver" }),
          events: Events,
        }),
        headers: t.Object({
          "idempotency-key": t.Optional(
            t.String({ description: "replays the first response for 24 h (same body)" }),
          ),
        }),
        response: {
          201: CreatedWebhook,
          ...listErrors,
          409: error(
            "20 webhooks already exist, or Idempotency-Key reused with a different body / still in progress",
          ),
        },
        detail: {
          summary: "Subscribe a URL to project events",
          description:
            `${access("webhooks:write")} Answers the whsec_ signing secret once. The URL must be ` +
            "https and resolve to public addresses (unless ALLOW_PRIVATE_WEBHOOK_URLS). " +
            `At most ${WEBHOOK_LIMITS.perOrganization} per organization.`,
        },
      },
    )
    .get(
      "/:id",
      async ({ run, params }) => (await run(GetWebhookDocument, { id: params.id })).webhook,
      {
        params: IdParams,
        response: { 200: Webhook, ...errors },
        detail: { summary: "Read a webhook", description: access("webhooks:read") },
      },
    )
    .patch(
      "/:id",
      async ({ run, params, body }) =>
        (
          await restPaths(
            run(UpdateWebhookDocument, {
              id: params.id,
              input: body,
            }),
          )
        ).updateWebhook,
      {
        params: IdParams,
        body: t.Object({
          url: t.Optional(t.String()),
          events: t.Optional(Events),
          active: t.Optional(t.Boolean({ description: "true re-enables a disabled webhook" })),
        }),
        response: { 200: Webhook, ...errors },
        detail: {
          summary: "Change a webhook",
          description: `${access("webhooks:write")} Give url, events, active or several.`,
        },
      },
    )
    .delete(
      "/:id",
      async ({ run, params }) =>
        (await run(DeleteWebhookDocument, { id: params.id })).deleteWebhook,
      {
        params: IdParams,
        response: { 200: Deleted, ...errors },
        detail: {
          summary: "Delete a webhook",
          description: `${access("webhooks:write")} Its pending deliveries are dropped.`,
        },
      },
    )
    .post(
      "/:id/rotate-secret",
      async ({ run, params, body, set }) => {
        set.headers["cache-control"] = "no-store"; // the answer carries the signing secret
        const { rotateWebhookSecret } = await run(RotateWebhookSecretDocument, {
          id: params.id,
          gracePeriodHours: body?.gracePeriodHours ?? null,
        });
        return rotateWebhookSecret;
      },
      {
        params: IdParams,
        body: t.Optional(
          t.Object({
            gracePeriodHours: t.Optional(
              t.Integer({
                minimum: 0,
                maximum: WEBHOOK_LIMITS.maxGraceHours,
                description: `hours the previous secret still signs (default ${WEBHOOK_LIMITS.defaultGraceHours})`,
              }),
            ),
          }),
        ),
        response: { 200: RotatedSecret, ...errors },
        detail: {
          summary: "Rotate the signing secret",
          description:
            `${access("webhooks:write")} Answers a new whsec_ secret once. During the grace ` +
            "period every delivery's webhook-signature holds two signatures (new, then previous); " +
            "after it only the new one (docs/webhooks.md).",
        },
      },
    )
    .get(
      "/:id/deliveries",
      async ({ run, params, query, request, set }) =>
        // the SDL's status is a String; the outbox writes only the four values REST names
        listAnswer(
          deps.publicBaseUrl,
          request,
          set.headers,
          (await run(ListWebhookDeliveriesDocument, { id: params.id, ...query })).webhookDeliveries,
        ) as Json<typeof DeliveryList>,
      {
        params: IdParams,
        query: PageQuery,
        response: { 200: DeliveryList, ...errors },
        detail: {
          summary: "Delivery log of a webhook",
          description:
            `${access("webhooks:read")} One entry per event sent to this webhook: attempts, ` +
            "last status code and error, next attempt, delivered at.",
        },
      },
    )
    .post(
      "/:id/deliveries/:deliveryId/retry",
      async ({ run, params, set }) => {
        const { retryWebhookDelivery } = await run(RetryWebhookDeliveryDocument, {
          id: params.id,
          deliveryId: params.deliveryId,
        });
        set.status = 202;
        return retryWebhookDelivery;
      },
      {
        params: t.Object({ id: t.String(), deliveryId: t.String() }),
        response: {
          202: Delivery,
          ...errors,
          409: error("the webhook is disabled, or an attempt is in flight"),
        },
        detail: {
          summary: "Send a delivery again now",
          description:
            `${access("webhooks:write")} Queues one more attempt at once, whatever the ` +
            "delivery's state (a delivered event is sent again with the same webhook-id).",
        },
      },
    );
};
