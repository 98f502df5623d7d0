import { defineFeature } from "../feature.ts";
import { groupResolvers } from "./resolvers.ts";
import { groupRoutes } from "./rest.ts";
import { GroupService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    groups: GroupService;
  }
}

/** The groups feature: groups of members. */
export const groups = defineFeature({
  name: "groups",
  routes: ({ auth, infra }) => [groupRoutes({ auth, publicBaseUrl: infra.config.publicBaseUrl })],
  resolvers: groupResolvers,
  services: { groups: ({ database }) => new GroupService(database) },
  openapi: {
    operationIds: {
      "GET /api/v1/groups": "listGroups",
    },
    tags: {
      groups: "Interface A: groups of members",
    },
  },
});
