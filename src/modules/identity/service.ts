import { requireApiAccess } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";

/**
 * Who the calling key is, and a check that it works (the quota counts it like any request).
 * Nothing to read: the principal was loaded with the key, so there is no queries.ts here.
 */
export const identityService = {
  whoami(principal: Principal) {
    requireApiAccess(principal);
    return {
      organization: { id: principal.organization.id, name: principal.organization.name },
      user: principal.user,
      apiKey: {
        name: principal.apiKey.name,
        scopes: [...principal.apiKey.scopes],
        expiresAt: principal.apiKey.expiresAt,
      },
    };
  },

  health(principal: Principal) {
    requireApiAccess(principal);
    return { status: "ok" as const };
  },
};
