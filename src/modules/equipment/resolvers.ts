import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { EquipmentStatus } from "./queries.ts";
import type { BulkCreateInput } from "./service.ts";

export const equipmentResolvers = {
  Query: {
    equipments(_: unknown, args: PageArgs & { status?: EquipmentStatus }, ctx: GraphQLContext) {
      return ctx.services.equipment.list(ctx, args);
    },
  },
  Mutation: {
    bulkCreateEquipment(_: unknown, { input }: { input: BulkCreateInput }, ctx: GraphQLContext) {
      return ctx.services.equipment.bulkCreate(ctx, input);
    },
  },
};
