import type { AuthContext } from "../auth/guard.ts";
import type { Member, Principal } from "../auth/principal.ts";
import type { DomainServices } from "../services.ts";

/** What the schema's resolvers are built over: the features' services and the clock. */
export interface GraphQLDeps {
  services: DomainServices;
  /** for values computed at read time (a key's status) */
  now: () => Date;
}

/**
 * What every resolver receives: who is calling, the domain services and the clock. Nothing request-scoped is
 * built here: every request pays for it, and the two DataLoaders that once were had no reader.
 */
export interface GraphQLContext extends AuthContext, GraphQLDeps {
  /**
   * A person signed in to the settings screen. Set only by the pages, which run operations
   * in-process; /graphql never builds a context with it, so a session cookie opens nothing there.
   */
  member: Member | null;
}

export function createContext(
  { services, now }: GraphQLDeps,
  auth: { principal?: Principal | null; operator?: boolean; member?: Member | null },
): GraphQLContext {
  return {
    principal: auth.principal ?? null,
    operator: auth.operator ?? false,
    member: auth.member ?? null,
    services,
    now,
  };
}
