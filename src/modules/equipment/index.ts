import { defineFeature } from "../feature.ts";
import { equipmentEvents } from "./events.ts";
import { equipmentResolvers } from "./resolvers.ts";
import { equipmentExtensionRoutes, equipmentRoutes, installRoutes } from "./rest.ts";
import { EquipmentService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    equipment: EquipmentService;
  }
}

/** The equipment feature: equipment, bulk creation, agent install links. */
export const equipment = defineFeature({
  name: "equipment",
  routes: ({ auth, idempotency, infra, services }) => [
    equipmentRoutes({ auth, idempotency, publicBaseUrl: infra.config.publicBaseUrl }),
    equipmentExtensionRoutes({ auth, idempotency }),
    installRoutes({ limits: infra.limits, equipment: services.equipment }),
  ],
  resolvers: equipmentResolvers,
  services: {
    equipment: ({ database, config, now, live }) =>
      new EquipmentService(database, config.publicBaseUrl, now, live),
  },
  events: Object.values(equipmentEvents),
  openapi: {
    operationIds: {
      "GET /api/v1/equipments": "listEquipment",
      "POST /api/v1/equipments/bulk-create": "bulkCreateEquipment",
      "GET /install/{token}": "getInstallInfo",
      "GET /api/v1/equipments/{id}": "getEquipment",
      "PATCH /api/v1/equipments/{id}": "updateEquipment",
      "POST /api/v1/equipments/{id}/retire": "retireEquipment",
    },
    tags: {
      equipment: "Interface A: equipment, bulk creation, agent install links",
    },
  },
});
