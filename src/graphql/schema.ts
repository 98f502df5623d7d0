import { readdirSync, readFileSync } from "node:fs";
import { createSchema } from "graphql-yoga";
import { agentReleaseResolvers } from "../modules/agent-releases/resolvers.ts";
import { alertResolvers } from "../modules/alerts/resolvers.ts";
import { equipmentResolvers } from "../modules/equipment/resolvers.ts";
import { groupResolvers } from "../modules/groups/resolvers.ts";
import { identityResolvers } from "../modules/identity/resolvers.ts";
import { operatorResolvers } from "../modules/operator/resolvers.ts";
import { projectResolvers } from "../modules/projects/resolvers.ts";
import { settingsResolvers } from "../modules/settings/resolvers.ts";
import { ticketResolvers } from "../modules/tickets/resolvers.ts";
import { unitResolvers } from "../modules/units/resolvers.ts";
import { memberResolvers } from "../modules/users/resolvers.ts";
import { webhookResolvers } from "../modules/webhooks/resolvers.ts";
import type { GraphQLContext } from "./context.ts";
import { DateTime } from "./scalars.ts";

const schemaDir = new URL("../../schema/", import.meta.url);

/** The SDL of every domain, in file-name order so the schema prints the same each time. */
export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".graphql"))
    .sort()
    .map((file) => readFileSync(new URL(file, schemaDir), "utf8"));
}

export function buildSchema() {
  return createSchema<GraphQLContext>({
    typeDefs: loadTypeDefs(),
    resolvers: [
      { DateTime },
      identityResolvers,
      operatorResolvers,
      projectResolvers,
      ticketResolvers,
      equipmentResolvers,
      unitResolvers,
      groupResolvers,
      memberResolvers,
      agentReleaseResolvers,
      alertResolvers,
      webhookResolvers,
      settingsResolvers,
    ],
  });
}
