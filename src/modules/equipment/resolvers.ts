import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import { delivered, type LiveMessage } from "../../outbox/live-subscriptions.ts";
import type { UpdateEquipmentInput } from "./changes.ts";
import type { EquipmentStatus } from "./queries.ts";
import type { BulkCreateInput } from "./service.ts";

type Versioned = { id: string; expectedVersion?: number | null };

/** Thin adapters: the caller's principal and the arguments go to the equipment service. */
export const equipmentResolvers = {
  Query: {
    equipments(_: unknown, args: PageArgs & { status?: EquipmentStatus }, ctx: GraphQLContext) {
      return ctx.services.equipment.list(requirePrincipal(ctx), args);
    },
    equipment(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.equipment.get(requirePrincipal(ctx), args.id);
    },
  },
  Subscription: {
    equipmentEvents: {
      subscribe: (
        _: unknown,
        args: { equipmentId?: string | null; types?: string[] | null },
        ctx: GraphQLContext,
      ) => ctx.services.equipment.events(requirePrincipal(ctx), args),
      // an event, or the refusal that ends the stream after an auth change (sent as its error)
      resolve: (message: LiveMessage) => {
        const event = delivered(message);
        return { ...event, equipment: event.record };
      },
    },
  },
  Mutation: {
    bulkCreateEquipment(_: unknown, { input }: { input: BulkCreateInput }, ctx: GraphQLContext) {
      return ctx.services.equipment.bulkCreate(requirePrincipal(ctx), input);
    },
    updateEquipment(
      _: unknown,
      args: Versioned & { input: UpdateEquipmentInput },
      ctx: GraphQLContext,
    ) {
      return ctx.services.equipment.update(requirePrincipal(ctx), args);
    },
    retireEquipment(_: unknown, args: Versioned, ctx: GraphQLContext) {
      return ctx.services.equipment.retire(requirePrincipal(ctx), args);
    },
  },
};
