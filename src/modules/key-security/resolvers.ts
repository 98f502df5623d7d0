import { GraphQLScalarType, Kind } from "graphql";
import { requireOperator } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { Resolvers } from "../../graphql/schema.ts";
import { allowedChoices, exceedsPolicy } from "./lifetime.ts";
import type { KeyActor } from "./service.ts";

/** A settings-screen member acts as themself; otherwise only the operator token may. */
function actor(ctx: GraphQLContext): KeyActor {
  if (ctx.member) return { member: ctx.member };
  requireOperator(ctx);
  return { operator: true };
}

/** Whole seconds; the range is the field's (service.ts), so its 400 can name the field. */
export const Seconds = new GraphQLScalarType<number, number>({
  name: "Seconds",
  serialize: (value) => value as number,
  parseValue(value) {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) {
      throw new TypeError("Seconds must be a whole number");
    }
    return value;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new TypeError("Seconds must be a whole number");
    return Number(ast.value);
  },
});

/** Thin adapters: who acts, then the service. */
export const keySecurityResolvers: Resolvers = {
  Seconds,
  Mutation: {
    rotateApiKey(_, args, ctx) {
      return ctx.services.keySecurity.rotate(actor(ctx), args.id, args.gracePeriod);
    },
    setApiKeyAllowedIps(_, args, ctx) {
      return ctx.services.keySecurity.setAllowedIps(actor(ctx), args.id, args.allowedIps);
    },
    setKeyLifetimePolicy(_, args, ctx) {
      return ctx.services.keySecurity.setKeyLifetimePolicy(
        actor(ctx),
        args.organizationId,
        args.maxKeyLifetimeDays,
      );
    },
  },
  MyOrganization: {
    keyExpirationChoices: (org, _, ctx) =>
      allowedChoices(org.maxKeyLifetimeDays ?? null, ctx.now()),
  },
  ApiKey: {
    allowedIps: (key) => key.allowedIps ?? [],
    async exceedsLifetimePolicy(key, _, ctx) {
      const max =
        key.maxKeyLifetimeDays !== undefined
          ? key.maxKeyLifetimeDays
          : await ctx.services.keySecurity.maxLifetimeDays(key.organizationId);
      return exceedsPolicy(key, max);
    },
  },
};
