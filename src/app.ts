import { Elysia } from "elysia";
import { KeyStore } from "./auth/key-store.ts";
import { SessionStore } from "./auth/sessions.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { OperationBridge } from "./graphql/bridge.ts";
import { OperationExecutor } from "./graphql/executor.ts";
import { buildSchema } from "./graphql/schema.ts";
import { apiDocs } from "./http/api-docs.ts";
import { createClientIpResolver } from "./http/client-ip.ts";
import { errorHandler } from "./http/error-handler.ts";
import { graphqlRoute } from "./http/graphql-route.ts";
import { inputGuard } from "./http/input-guard.ts";
import { jsonBody } from "./http/json-body.ts";
import { probeRoutes } from "./http/probes.ts";
import { rateLimitPlugin } from "./http/rate-limit.ts";
import { requestContext } from "./http/request-context.ts";
import { routableRequest } from "./http/routable-url.ts";
import { createLimits, type LimitsOptions } from "./limits/create.ts";
import { noLimits } from "./limits/limits.ts";
import { createLogger, type Logger } from "./logger.ts";
import { agentReleaseRoutes } from "./modules/agent-releases/rest.ts";
import { AgentReleaseService } from "./modules/agent-releases/service.ts";
import { alertRoutes } from "./modules/alerts/rest.ts";
import { AlertService } from "./modules/alerts/service.ts";
import { equipmentRoutes, installRoutes } from "./modules/equipment/rest.ts";
import { EquipmentService } from "./modules/equipment/service.ts";
import { groupRoutes } from "./modules/groups/rest.ts";
import { GroupService } from "./modules/groups/service.ts";
import { identityRoutes } from "./modules/identity/rest.ts";
import { ApiKeyAdmin } from "./modules/operator/api-keys.ts";
import { OperatorService } from "./modules/operator/service.ts";
import { projectRoutes } from "./modules/projects/rest.ts";
import { ProjectService } from "./modules/projects/service.ts";
import { AccountService } from "./modules/settings/accounts.ts";
import { OperatorReads } from "./modules/settings/operator-reads.ts";
import { MemberKeyService } from "./modules/settings/service.ts";
import { ticketRoutes } from "./modules/tickets/rest.ts";
import { TicketService } from "./modules/tickets/service.ts";
import { unitRoutes } from "./modules/units/rest.ts";
import { UnitService } from "./modules/units/service.ts";
import { memberRoutes } from "./modules/users/rest.ts";
import { MemberService } from "./modules/users/service.ts";
import { webhookRoutes } from "./modules/webhooks/rest.ts";
import { WebhookService } from "./modules/webhooks/service.ts";
import {
  type DispatcherOptions,
  defaultDispatcherOptions,
  WebhookDispatcher,
} from "./outbox/dispatcher.ts";
import { settingsPages } from "./pages/routes.ts";
import type { Services } from "./services.ts";

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
}

export interface OrgitApp {
  /** the web-standard fetch handler (Bun.serve, Deno.serve, tests) */
  handle(request: Request): Promise<Response>;
  services: Services;
  /** flushes batched writes and stops listeners; the database stays open */
  stop(): Promise<void>;
}

function buildElysia(
  services: Services,
  executor: OperationExecutor,
  schema: ReturnType<typeof buildSchema>,
) {
  const { config, logger } = services;
  const clientIp = createClientIpResolver(config.trustProxy);
  const operations = new OperationBridge(executor, services);
  const auth = { keys: services.keys, limits: services.limits, operations };
  const deps = { auth, idempotency: services };
  return new Elysia({ name: "orgit" })
    .use(requestContext({ config, logger, clientIp }))
    .use(rateLimitPlugin(services.limits))
    .use(errorHandler(logger))
    .use(jsonBody())
    .use(inputGuard())
    .use(probeRoutes(services.database, logger))
    .use(apiDocs(config))
    .use(identityRoutes(deps))
    .use(unitRoutes(deps))
    .use(groupRoutes(deps))
    .use(memberRoutes(deps))
    .use(agentReleaseRoutes(deps))
    .use(alertRoutes({ auth, alerts: services.alerts }))
    .use(ticketRoutes(deps))
    .use(equipmentRoutes(deps))
    .use(installRoutes(services))
    .use(projectRoutes(deps))
    .use(webhookRoutes(deps))
    .use(settingsPages({ services, operations }))
    .use(graphqlRoute(services, schema));
}

/** Builds the whole service over an open database: schema, executor, services and routes. */
export async function createApp(options: AppOptions): Promise<OrgitApp> {
  const { config, database } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger(config.logLevel);
  const keys = new KeyStore(database, logger, now);
  const sessions = new SessionStore(database, now);
  const apiKeys = new ApiKeyAdmin(database, keys, now);
  const services: Services = {
    config,
    logger,
    database,
    limits:
      options.limits === false ? noLimits : createLimits({ config, logger, database }, options),
    keys,
    operator: new OperatorService(database, keys, now),
    apiKeys,
    sessions,
    accounts: new AccountService(database, sessions, config.publicBaseUrl, now),
    memberKeys: new MemberKeyService(database, apiKeys),
    operatorReads: new OperatorReads(database),
    units: new UnitService(database),
    groups: new GroupService(database),
    members: new MemberService(database),
    agentReleases: new AgentReleaseService(database),
    alerts: new AlertService(database, now),
    projects: new ProjectService(database, now),
    tickets: new TicketService(database, now),
    equipment: new EquipmentService(database, config.publicBaseUrl, now),
    webhooks: new WebhookService(
      database,
      now,
      config.allowPrivateWebhookUrls,
      options.webhooks ? options.webhooks.resolve : undefined,
    ),
    now,
  };
  const dispatcher =
    options.webhooks === false
      ? undefined
      : new WebhookDispatcher(database, logger, now, {
          ...defaultDispatcherOptions(config.allowPrivateWebhookUrls),
          ...options.webhooks,
        });
  const schema = buildSchema();
  const executor = new OperationExecutor(schema);
  const app = buildElysia(services, executor, schema);
  await keys.start();
  await services.limits.start();
  await dispatcher?.start();
  return {
    handle: (request) => app.handle(routableRequest(request)),
    services,
    stop: async () => {
      await dispatcher?.stop(); // in-flight deliveries finish (bounded); the rest wait in the outbox
      await services.limits.stop(); // writes the last quota counts
      await keys.stop();
    },
  };
}
