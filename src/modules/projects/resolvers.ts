import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapters: the caller's principal and the arguments go to the project service. */
export const projectResolvers: Resolvers = {
  Query: {
    projects(_, args, ctx) {
      return ctx.services.projects.list(requirePrincipal(ctx), args);
    },
    project(_, args, ctx) {
      return ctx.services.projects.get(requirePrincipal(ctx), args.id);
    },
  },
  Mutation: {
    createProject(_, args, ctx) {
      return ctx.services.projects.create(requirePrincipal(ctx), args.input);
    },
    updateProject(_, args, ctx) {
      return ctx.services.projects.update(requirePrincipal(ctx), args.id, args.input);
    },
    deleteProject(_, args, ctx) {
      return ctx.services.projects.delete(requirePrincipal(ctx), args.id);
    },
  },
};
