import { Elysia } from "elysia";
import type { GraphQLSchema } from "graphql";
import { AuditTrail, type AuditTrailOptions } from "./auth/audit-trail.ts";
import { KeyStore } from "./auth/key-store.ts";
import { OWASP_SCRYPT, type ScryptParams } from "./auth/passwords.ts";
import { SessionStore } from "./auth/sessions.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { PartitionUpkeep, type PartitionUpkeepOptions } from "./db/partition-upkeep.ts";
import { DAY_MS } from "./db/queries/day-partitions.ts";
import {
  FEATURE_RESOLVERS,
  FEATURES,
  OPENAPI_NAMES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
} from "./features.ts";
import { OperationBridge } from "./graphql/bridge.ts";
import type { GraphQLDeps } from "./graphql/context.ts";
import { OperationExecutor } from "./graphql/executor.ts";
import { buildSchema } from "./graphql/schema.ts";
import { apiDocs } from "./http/api-docs.ts";
import { createClientIpResolver } from "./http/client-ip.ts";
import { errorHandler } from "./http/error-handler.ts";
import { graphqlRoute } from "./http/graphql-route.ts";
import { IDEMPOTENCY_TTL_MS } from "./http/idempotency.ts";
import { inputGuard } from "./http/input-guard.ts";
import { jsonBody } from "./http/json-body.ts";
import { probeRoutes } from "./http/probes.ts";
import { rateLimitPlugin } from "./http/rate-limit.ts";
import { requestContext } from "./http/request-context.ts";
import { routableRequest } from "./http/routable-url.ts";
import { createLimits, type LimitsOptions } from "./limits/create.ts";
import { noLimits } from "./limits/limits.ts";
import { createLogger, type Logger } from "./logger.ts";
import { findAlert } from "./modules/alerts/queries.ts";
import { findEquipment } from "./modules/equipment/queries.ts";
import type { RouteContext } from "./modules/feature.ts";
import { findTicket } from "./modules/tickets/queries.ts";
import type { WebhookService } from "./modules/webhooks/service.ts";
import {
  type DispatcherOptions,
  defaultDispatcherOptions,
  WebhookDispatcher,
} from "./outbox/dispatcher.ts";
import { LiveHub, type LiveLoaders, type RedisSubscriber } from "./outbox/live.ts";
import type { SlotTimes } from "./outbox/live-slots.ts";
import { WebhookSecretBox } from "./outbox/secret-box.ts";
import type { Resolve } from "./outbox/ssrf.ts";
import type { DomainServices, Infrastructure, Services } from "./services.ts";
import { stopInOrder } from "./shutdown.ts";

export interface AppOptions extends LimitsOptions {
  config: Config;
  database: Database;
  logger?: Logger;
  /** injectable clock for expiry, rate-limit buckets and quota windows */
  now?: () => Date;
  /** false: no rate limits or quota at all (the benchmark's baseline); also see LimitsOptions */
  limits?: boolean;
  /** webhook dispatcher settings (tests shorten retries, inject DNS); false: no dispatcher */
  webhooks?: Partial<DispatcherOptions> | false;
  /** DNS of the webhook URL check at subscription time; by default the dispatcher's `resolve` */
  resolveHost?: Resolve;
  /** false: the features' periodic jobs (retention, audit upkeep…) are not started; tests run them */
  backgroundJobs?: boolean;
  /** the audit trail's recorder (enabled: false records nothing); its upkeep is a feature job */
  audit?: AuditTrailOptions;
  /** a second Redis connection for live updates (SUBSCRIBE); with `redis`, events go by Redis */
  redisSubscriber?: RedisSubscriber;
  /** how long a dead instance's stream slots last (tests shorten it) */
  liveSlotTimes?: SlotTimes;
  /** the day-partitioned tables' upkeep job (tests run it by hand with `checkMs: 0`) */
  partitions?: Partial<PartitionUpkeepOptions> | false;
  /** scrypt's parameters for new password hashes (OWASP's; the test harness lowers them) */
  passwordHashing?: ScryptParams;
}

export interface OrgitApp {
  /** the web-standard fetch handler (Bun.serve, Deno.serve, tests) */
  handle(request: Request): Promise<Response>;
  services: Services;
  /** flushes batched writes and stops listeners; the database stays open */
  stop(): Promise<void>;
}

/** Each feature's domain services, built from the infrastructure (modules/<feature>/index.ts). */
function buildDomainServices(infra: Infrastructure): DomainServices {
  const services: Record<string, unknown> = {};
  for (const feature of FEATURES) {
    for (const [name, build] of Object.entries(feature.services ?? {})) {
      services[name] = build(infra, { events: WEBHOOK_EVENTS });
    }
  }
  return services as unknown as DomainServices;
}

/** Global plugins first, then every feature's routes in the list's order, then /graphql. */
function buildElysia(infra: Infrastructure, graphql: GraphQLDeps, schema: GraphQLSchema) {
  const { config, logger, limits, keys } = infra;
  const executor = new OperationExecutor(schema, undefined, infra.database.reads);
  const operations = new OperationBridge(executor, graphql);
  const context: RouteContext = {
    infra,
    services: graphql.services,
    auth: { keys, limits, operations },
    idempotency: { database: infra.database, now: infra.now },
    operations,
    eventTypes: WEBHOOK_EVENT_TYPES,
  };
  const app = new Elysia({ name: "orgit" })
    .use(
      requestContext({
        config,
        logger,
        clientIp: createClientIpResolver(config.trustProxy),
        audit: infra.auditTrail,
      }),
    )
    .use(rateLimitPlugin(limits))
    .use(errorHandler(logger))
    .use(jsonBody())
    .use(inputGuard())
    .use(probeRoutes(infra.database, logger))
    .use(apiDocs(config, OPENAPI_NAMES));
  for (const feature of FEATURES) {
    for (const routes of feature.routes?.(context) ?? []) app.use(routes);
  }
  const { live } = infra;
  return app.use(
    graphqlRoute({ config, logger, keys, limits, live, graphql, database: infra.database }, schema),
  );
}

/** Each live resource's record read again by id (docs/decisions.md §17.7). */
const liveLoaders = ({ db }: Database): LiveLoaders => ({
  ticket: (organizationId, id) => findTicket(db, organizationId, id),
  alert: (organizationId, id) => findAlert(db, organizationId, id),
  equipment: (organizationId, id) => findEquipment(db, organizationId, id),
});

/** Builds the whole service over an open database: schema, executor, services and routes. */
export async function createApp(options: AppOptions): Promise<OrgitApp> {
  const { config, database } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger(config.logLevel);
  const keys = new KeyStore(database, logger, now);
  // epoch ms for the audit trail: no Date object per request unless a clock is injected
  const nowMs = options.now ? () => now().getTime() : Date.now;
  // events too big for a notification travel as a reference: each instance reads the record
  const { redis, redisSubscriber: subscriber, redisPrefix: prefix } = options;
  const live = new LiveHub(database, keys, liveLoaders(database), logger, {
    redis: redis && subscriber ? { commands: redis, subscriber, prefix } : undefined,
    slotTimes: options.liveSlotTimes,
  });
  const infra: Infrastructure = {
    config,
    logger,
    database,
    limits:
      options.limits === false ? noLimits : createLimits({ config, logger, database }, options),
    keys,
    sessions: new SessionStore(database, now),
    auditTrail: new AuditTrail(database, logger, nowMs, {
      enabled: config.auditLog,
      ...options.audit,
    }),
    routeTemplates: new Set(),
    webhookSecrets: new WebhookSecretBox(config.webhookSecretKey, config.webhookSecretKeyPrevious),
    live,
    resolveHost: options.resolveHost ?? (options.webhooks ? options.webhooks.resolve : undefined),
    now,
    passwordHashing: options.passwordHashing ?? OWASP_SCRYPT,
  };
  const graphql: GraphQLDeps = { services: buildDomainServices(infra), now };
  const dispatcher =
    options.webhooks === false
      ? undefined
      : new WebhookDispatcher(database, logger, now, {
          ...defaultDispatcherOptions(config.allowPrivateWebhookUrls),
          secretBox: infra.webhookSecrets,
          ...options.webhooks,
        });
  const app = buildElysia(infra, graphql, buildSchema(FEATURE_RESOLVERS));
  for (const route of app.routes) infra.routeTemplates.add(route.path);
  const partitions =
    options.partitions === false
      ? undefined
      : new PartitionUpkeep(database, logger, now, {
          ...options.partitions,
          retentionMs: {
            quotaUsage: DAY_MS, // the sliding 24 h window
            idempotencyKeys: IDEMPOTENCY_TTL_MS,
            webhookDeliveries:
              (options.webhooks || undefined)?.retentionMs ??
              defaultDispatcherOptions(false).retentionMs,
            ...options.partitions?.retentionMs,
          },
        });
  await graphql.services.webhooks.sealClearSecrets(); // rows from before secrets were encrypted
  await resealWebhookSecrets(graphql.services.webhooks, logger);
  await keys.start();
  await infra.auditTrail.start();
  partitions?.start();
  await infra.limits.start();
  await dispatcher?.start();
  const jobs =
    options.backgroundJobs === false
      ? []
      : FEATURES.flatMap((f) => f.jobs?.(graphql.services) ?? []);
  for (const job of jobs) job.start();
  await live.start();
  // the compiled handler itself: Elysia's `handle` is an async wrapper around it, one more
  // promise (and its resolution by another) per request; every route is registered by now.
  // Promise.resolve returns the handler's own promise as it is (a sync answer gets one).
  const fetch = app.fetch;
  return {
    handle: (request) => Promise.resolve(fetch(routableRequest(request))),
    services: { ...infra, ...graphql.services },
    stop: () =>
      stopInOrder(logger, [
        [
          "background jobs",
          async () => {
            for (const job of jobs) await job.stop();
          },
        ],
        // in-flight deliveries finish (bounded); the rest wait in the outbox
        ["webhook dispatcher", async () => dispatcher?.stop()],
        ["rate limits", () => infra.limits.stop()], // writes the last quota counts
        ["partition upkeep", async () => partitions?.stop()],
        ["audit trail", () => infra.auditTrail.stop()], // writes the last audit rows
        ["key store", () => keys.stop()],
        ["live updates", () => live.stop()],
      ]),
  };
}

/** Secrets another WEBHOOK_SECRET_KEY sealed, sealed again under this one (docs/operations.md). */
async function resealWebhookSecrets(webhooks: WebhookService, logger: Logger) {
  const { resealed, unreadable } = await webhooks.resealSecrets();
  if (resealed > 0)
    logger.info("webhook secrets sealed again under WEBHOOK_SECRET_KEY", { resealed });
  if (unreadable > 0)
    logger.warn("webhook secrets no configured key opens: rotate those webhooks' secrets", {
      unreadable,
    });
}
