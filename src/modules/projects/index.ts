import { defineFeature } from "../feature.ts";
import { projectEvents } from "./events.ts";
import { projectResolvers } from "./resolvers.ts";
import { projectRoutes } from "./rest.ts";
import { ProjectService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    projects: ProjectService;
  }
}

/** The projects feature: projects; changes emit webhook events. */
export const projects = defineFeature({
  name: "projects",
  routes: ({ auth, idempotency, infra }) => [
    projectRoutes({ auth, idempotency, publicBaseUrl: infra.config.publicBaseUrl }),
  ],
  resolvers: projectResolvers,
  services: { projects: ({ database, now }) => new ProjectService(database, now) },
  events: Object.values(projectEvents), // in declaration order
  openapi: {
    operationIds: {
      "GET /api/projects": "listProjects",
      "POST /api/projects": "createProject",
      "GET /api/projects/{id}": "getProject",
      "PATCH /api/projects/{id}": "updateProject",
      "DELETE /api/projects/{id}": "deleteProject",
    },
    tags: {
      projects: "Interface B: projects; changes emit webhook events",
    },
  },
});
