import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { EquipmentStatus } from "./queries.ts";
import type { BulkCreateInput } from "./service.ts";

/** Thin adapters: the caller's principal and the arguments go to the equipment service. */
export const equipmentResolvers = {
  Query: {
    equipments(_: unknown, args: PageArgs & { status?: EquipmentStatus }, ctx: GraphQLContext) {
      return ctx.services.equipment.list(requirePrincipal(ctx), args);
    },
  },
  Mutation: {
    bulkCreateEquipment(_: unknown, { input }: { input: BulkCreateInput }, ctx: GraphQLContext) {
      return ctx.services.equipment.bulkCreate(requirePrincipal(ctx), input);
    },
  },
};
