import type { AuthContext } from "../auth/guard.ts";
import type { Principal } from "../auth/principal.ts";
import type { Services } from "../services.ts";
import { createLoaders, type Loaders } from "./loaders.ts";

/** What every resolver receives: who is calling, the services, and request-scoped loaders. */
export interface GraphQLContext extends AuthContext {
  services: Services;
  loaders: Loaders;
}

export function createContext(
  services: Services,
  auth: { principal?: Principal | null; operator?: boolean },
): GraphQLContext {
  return {
    principal: auth.principal ?? null,
    operator: auth.operator ?? false,
    services,
    loaders: createLoaders(services.database.db),
  };
}
