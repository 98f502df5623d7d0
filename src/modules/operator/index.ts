import { defineFeature } from "../feature.ts";
import { ApiKeyAdmin } from "./api-keys.ts";
import { operatorResolvers } from "./resolvers.ts";
import { OperatorService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    operator: OperatorService;
    apiKeys: ApiKeyAdmin;
  }
}

/** The operator feature: the operator's GraphQL mutations (ADMIN_TOKEN): organizations, members, keys. */
export const operator = defineFeature({
  name: "operator",
  resolvers: operatorResolvers,
  services: {
    operator: ({ database, keys, now, auditTrail }) =>
      new OperatorService(database, keys, now, auditTrail),
    apiKeys: ({ database, keys, now, auditTrail }) =>
      new ApiKeyAdmin(database, keys, now, auditTrail),
  },
});
