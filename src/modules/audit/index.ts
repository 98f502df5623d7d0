import { defineFeature } from "../feature.ts";
import { ApiKeyAdmin } from "../operator/api-keys.ts";
import { MemberKeyService } from "../settings/service.ts";
import { AuditMaintenance } from "./maintenance.ts";
import { auditResolvers } from "./resolvers.ts";
import { auditRoutes } from "./rest.ts";
import { AuditService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    audit: AuditService;
    /** the trail's upkeep: partitions ahead, retention; hourly on one instance */
    auditMaintenance: AuditMaintenance;
  }
}

/**
 * The usage and audit trail's reads: GraphQL `auditLog`, the REST extension and its NDJSON
 * export, a key's usage for the settings screen. Recording is infrastructure (the HTTP layer
 * and `auditTrail`, src/auth/audit-trail.ts); the upkeep (partitions, retention) is its job.
 */
export const audit = defineFeature({
  name: "audit",
  routes: ({ auth, services }) => [auditRoutes({ auth, audit: services.audit })],
  resolvers: auditResolvers,
  services: {
    audit: ({ database, keys, now, routeTemplates }) =>
      new AuditService(
        database,
        new MemberKeyService(database, new ApiKeyAdmin(database, keys, now)),
        routeTemplates,
        now,
      ),
    auditMaintenance: ({ database, logger, now }) => new AuditMaintenance(database, logger, now),
  },
  // every instance asks for the turn; the claimed row in maintenance_claims decides who runs it
  jobs: (services) => [services.auditMaintenance],
  openapi: {
    operationIds: {
      "GET /api/v1/audit-log": "listAuditLog",
      "GET /api/v1/audit-log/export": "exportAuditLog",
    },
    tags: { extensions: "Beyond the specification: the usage and audit trail" },
  },
});
