import { defineFeature } from "../feature.ts";
import { unitResolvers } from "./resolvers.ts";
import { unitRoutes } from "./rest.ts";
import { UnitService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    units: UnitService;
  }
}

/** The units feature: the organization's equipment units. */
export const units = defineFeature({
  name: "units",
  routes: ({ auth, infra }) => [unitRoutes({ auth, publicBaseUrl: infra.config.publicBaseUrl })],
  resolvers: unitResolvers,
  services: { units: ({ database }) => new UnitService(database) },
  openapi: {
    operationIds: {
      "GET /api/v1/equipment-units": "listEquipmentUnits",
    },
    tags: {
      "equipment units": "Interface A: the organization's structure",
    },
  },
});
