import type { AuthContext } from "../auth/guard.ts";
import type { Principal } from "../auth/principal.ts";
import type { Services } from "../services.ts";

/**
 * What every resolver receives: who is calling and the services. Nothing request-scoped is
 * built here: every request pays for it, and the two DataLoaders that once were had no reader.
 */
export interface GraphQLContext extends AuthContext {
  services: Services;
}

export function createContext(
  services: Services,
  auth: { principal?: Principal | null; operator?: boolean },
): GraphQLContext {
  return { principal: auth.principal ?? null, operator: auth.operator ?? false, services };
}
