import { defineFeature } from "../feature.ts";
import { identityResolvers } from "./resolvers.ts";
import { identityRoutes } from "./rest.ts";

/** The identity feature: who the key is, and a key and quota check. */
export const identity = defineFeature({
  name: "identity",
  routes: ({ auth }) => [identityRoutes({ auth })],
  resolvers: identityResolvers,
  openapi: {
    operationIds: {
      "GET /api/v1/whoami": "getWhoami",
      "GET /api/v1/health": "getHealth",
    },
    tags: {
      identity: "Interface A: who the key is, and a key and quota check",
    },
  },
});
