import { defineFeature } from "../feature.ts";
import { agentReleaseResolvers } from "./resolvers.ts";
import { agentReleaseRoutes } from "./rest.ts";
import { AgentReleaseService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    agentReleases: AgentReleaseService;
  }
}

/** The agent-releases feature: agent builds (global). */
export const agentReleases = defineFeature({
  name: "agent-releases",
  routes: ({ auth, infra }) => [
    agentReleaseRoutes({ auth, publicBaseUrl: infra.config.publicBaseUrl }),
  ],
  resolvers: agentReleaseResolvers,
  services: { agentReleases: ({ database }) => new AgentReleaseService(database) },
  openapi: {
    operationIds: {
      "GET /api/v1/agent-releases": "listAgentReleases",
    },
    tags: {
      "agent releases": "Interface A: agent builds (global)",
    },
  },
});
