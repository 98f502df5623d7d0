import { defineFeature } from "../feature.ts";
import { passkeyResolvers } from "./resolvers.ts";
import { PasskeyService, relyingParty } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    passkeys: PasskeyService;
  }
}

/**
 * The passkeys feature (docs/settings.md, Passkeys; docs/decisions.md §12): the WebAuthn
 * service the settings screen's pages use, and the operator's count of members' passkeys. Its
 * pages live with the rest of the screen (src/pages, mounted by the settings feature); its
 * policy is asked by the settings feature's sign-in (policy.ts).
 */
export const passkeys = defineFeature({
  name: "passkeys",
  resolvers: passkeyResolvers,
  services: {
    passkeys: ({ database, sessions, config, logger, now, auditTrail }) =>
      new PasskeyService(
        database,
        sessions,
        relyingParty(config.publicBaseUrl),
        logger,
        now,
        auditTrail,
      ),
  },
});
