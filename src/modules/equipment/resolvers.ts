import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";
import { delivered, type LiveMessage } from "../../outbox/live-subscriptions.ts";

/** Thin adapters: the caller's principal and the arguments go to the equipment service. */
export const equipmentResolvers: Resolvers = {
  Query: {
    equipments(_, args, ctx) {
      return ctx.services.equipment.list(requirePrincipal(ctx), args);
    },
    equipment(_, args, ctx) {
      return ctx.services.equipment.get(requirePrincipal(ctx), args.id);
    },
  },
  Subscription: {
    equipmentEvents: {
      subscribe: (_, args, ctx) => ctx.services.equipment.events(requirePrincipal(ctx), args),
      // an event, or the refusal that ends the stream after an auth change (sent as its error)
      resolve: (message: LiveMessage) => {
        const event = delivered(message);
        return { ...event, equipment: event.record };
      },
    },
  },
  Mutation: {
    bulkCreateEquipment(_, { input }, ctx) {
      return ctx.services.equipment.bulkCreate(requirePrincipal(ctx), input);
    },
    updateEquipment(_, args, ctx) {
      return ctx.services.equipment.update(requirePrincipal(ctx), args);
    },
    retireEquipment(_, args, ctx) {
      return ctx.services.equipment.retire(requirePrincipal(ctx), args);
    },
  },
};
