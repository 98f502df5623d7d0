import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { ProjectInput } from "./service.ts";

/** Thin adapters: the caller's principal and the arguments go to the project service. */
export const projectResolvers = {
  Query: {
    projects(_: unknown, args: { page?: number; limit?: number }, ctx: GraphQLContext) {
      return ctx.services.projects.list(requirePrincipal(ctx), args);
    },
    project(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.projects.get(requirePrincipal(ctx), args.id);
    },
  },
  Mutation: {
    createProject(_: unknown, args: { input: ProjectInput }, ctx: GraphQLContext) {
      return ctx.services.projects.create(requirePrincipal(ctx), args.input);
    },
    updateProject(_: unknown, args: { id: string; input: ProjectInput }, ctx: GraphQLContext) {
      return ctx.services.projects.update(requirePrincipal(ctx), args.id, args.input);
    },
    deleteProject(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.projects.delete(requirePrincipal(ctx), args.id);
    },
  },
};
