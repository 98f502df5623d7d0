import { readdirSync, readFileSync } from "node:fs";
import { createSchema } from "graphql-yoga";
import type { GraphQLContext } from "./context.ts";
import type { Resolvers as SchemaResolvers } from "./resolvers.generated.ts";
import { DateTime } from "./scalars.ts";

const schemaDir = new URL("../../schema/", import.meta.url);

/**
 * One feature's resolver map (`Query`, `Mutation` and its types' fields), typed by codegen from
 * the SDL (src/generated/schema.ts): its arguments, parents and results are the schema's.
 */
export type Resolvers = SchemaResolvers<GraphQLContext>;

/** The SDL of every domain, in file-name order so the schema prints the same each time. */
export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(".graphql"))
    .sort()
    .map((file) => readFileSync(new URL(file, schemaDir), "utf8"));
}

/** The one schema over every feature's resolvers (src/features.ts lists the features). */
export function buildSchema(resolvers: readonly Resolvers[]) {
  return createSchema<GraphQLContext>({
    typeDefs: loadTypeDefs(),
    resolvers: [{ DateTime }, ...resolvers],
  });
}
