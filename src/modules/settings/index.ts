import { settingsPages } from "../../pages/routes.ts";
import { defineFeature } from "../feature.ts";
import { ApiKeyAdmin } from "../operator/api-keys.ts";
import { passwordPolicy } from "../passkeys/policy.ts";
import { AccountService } from "./accounts.ts";
import { OperatorReads } from "./operator-reads.ts";
import { settingsResolvers } from "./resolvers.ts";
import { MemberKeyService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    accounts: AccountService;
    memberKeys: MemberKeyService;
    operatorReads: OperatorReads;
  }
}

/** The settings feature: the settings screen (sign-in, members' own keys) and its operator reads. */
export const settings = defineFeature({
  name: "settings",
  routes: ({ infra, services, operations }) => [
    settingsPages({
      services: {
        config: infra.config,
        logger: infra.logger,
        sessions: infra.sessions,
        accounts: services.accounts,
        passkeys: services.passkeys,
        now: infra.now,
        limits: infra.limits,
      },
      operations,
    }),
  ],
  resolvers: settingsResolvers,
  services: {
    accounts: ({ database, sessions, config, now, auditTrail, passwordHashing }) =>
      new AccountService(
        database,
        sessions,
        config.publicBaseUrl,
        now,
        passwordPolicy(database),
        auditTrail,
        passwordHashing,
      ),
    memberKeys: ({ database, keys, now, auditTrail }) =>
      new MemberKeyService(database, new ApiKeyAdmin(database, keys, now, auditTrail)),
    operatorReads: ({ database }) => new OperatorReads(database),
  },
});
