import { defineFeature } from "../feature.ts";
import { alertEvents } from "./events.ts";
import { alertResolvers } from "./resolvers.ts";
import { alertRoutes } from "./rest.ts";
import { AlertService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    alerts: AlertService;
  }
}

/** The alerts feature: alerts, and their keyless ingestion from monitoring. */
export const alerts = defineFeature({
  name: "alerts",
  routes: ({ auth, idempotency, infra, services }) => [
    alertRoutes({
      auth,
      idempotency,
      alerts: services.alerts,
      publicBaseUrl: infra.config.publicBaseUrl,
    }),
  ],
  resolvers: alertResolvers,
  services: { alerts: ({ database, now, live }) => new AlertService(database, now, live) },
  events: Object.values(alertEvents),
  openapi: {
    operationIds: {
      "GET /api/v1/alerts": "listAlerts",
      "POST /api/v1/alerts/ingest": "ingestAlerts",
      "GET /api/v1/alerts/{id}": "getAlert",
      "POST /api/v1/alerts/{id}/acknowledge": "acknowledgeAlert",
      "POST /api/v1/alerts/{id}/resolve": "resolveAlert",
      "POST /api/v1/alerts/{id}/reopen": "reopenAlert",
    },
    tags: {
      alerts: "Interface A: alerts, and their keyless ingestion from monitoring",
    },
  },
});
