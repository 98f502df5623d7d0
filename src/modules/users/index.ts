import { defineFeature } from "../feature.ts";
import { memberResolvers } from "./resolvers.ts";
import { memberRoutes } from "./rest.ts";
import { MemberService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    members: MemberService;
  }
}

/** The users feature: the organization's members. */
export const users = defineFeature({
  name: "users",
  routes: ({ auth, infra }) => [memberRoutes({ auth, publicBaseUrl: infra.config.publicBaseUrl })],
  resolvers: memberResolvers,
  services: { members: ({ database }) => new MemberService(database) },
  openapi: {
    operationIds: {
      "GET /api/v1/users": "listUsers",
    },
    tags: {
      users: "Interface A: the organization's members",
    },
  },
});
