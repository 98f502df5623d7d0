import { defineFeature } from "../feature.ts";
import { changeResolvers } from "./resolvers.ts";
import { changeRoutes } from "./rest.ts";
import { ChangeRetention } from "./retention.ts";
import { ChangeService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    changes: ChangeService;
    /** the feed's retention (and the ticket counters' folding), hourly on one instance */
    changeRetention: ChangeRetention;
  }
}

/** How often the retention runs. */
const RETENTION_EVERY_MS = 3_600_000;

/** The change feed: incremental sync of tickets, alerts and equipment (docs/api.md). */
export const changes = defineFeature({
  name: "changes",
  routes: ({ auth }) => [changeRoutes({ auth })],
  resolvers: changeResolvers,
  services: {
    changes: ({ database }) => new ChangeService(database),
    changeRetention: ({ database, logger, now }) => new ChangeRetention(database, logger, now),
  },
  jobs: (services) => [
    {
      start: () => services.changeRetention.start(RETENTION_EVERY_MS),
      stop: () => services.changeRetention.stop(),
    },
  ],
  openapi: {
    operationIds: { "GET /api/v1/changes": "listChanges" },
    tags: {
      extensions: "Routes beyond the original API that extend /api/v1 (the change feed, …)",
    },
  },
});
