import type { AuthContext } from "../auth/guard.ts";
import type { Principal } from "../auth/principal.ts";
import type { Member } from "../modules/settings/service.ts";
import type { Services } from "../services.ts";
import { createLoaders, type Loaders } from "./loaders.ts";

/** What every resolver receives: who is calling, the services, and request-scoped loaders. */
export interface GraphQLContext extends AuthContext {
  services: Services;
  loaders: Loaders;
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
    loaders: createLoaders(services.database.db),
  };
}
