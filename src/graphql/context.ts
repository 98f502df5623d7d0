import type { AuthContext } from "../auth/guard.ts";
import type { Principal } from "../auth/principal.ts";
import type { Member } from "../modules/settings/service.ts";
import type { Services } from "../services.ts";

/**
 * What every resolver receives: who is calling and the services. Nothing request-scoped is
 * built here: every request pays for it, and the two DataLoaders that once were had no reader.
 */
export interface GraphQLContext extends AuthContext {
  services: Services;
  /**
   * A person signed in to the settings screen. Set only by the pages, which run operations
   * in-process; /graphql never builds a context with it, so a session cookie opens nothing there.
   */
  member: Member | null;
}

export function createContext(
  services: Services,
  auth: { principal?: Principal | null; operator?: boolean; member?: Member | null },
): GraphQLContext {
  return {
    principal: auth.principal ?? null,
    operator: auth.operator ?? false,
    member: auth.member ?? null,
    services,
  };
}
