import { defineFeature } from "../feature.ts";
import { keyEvents } from "./events.ts";
import { ExpiryNotices } from "./expiry-notices.ts";
import { keySecurityResolvers } from "./resolvers.ts";
import { KeySecurityService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    keySecurity: KeySecurityService;
    /** the claimed schedule of API key expiry warnings */
    expiryNotices: ExpiryNotices;
  }
}

/**
 * API keys a security team trusts (docs/decisions.md §18): rotation with a grace period, IP
 * allowlists, the organization's maximum key lifetime, expiry warnings. Its pages are part of
 * the settings screen (src/pages/key-security.ts, mounted with the settings feature's); the
 * expiry-warning sweep is its job.
 */
export const keySecurity = defineFeature({
  name: "key-security",
  resolvers: keySecurityResolvers,
  services: {
    keySecurity: ({ database, keys, now, auditTrail }) =>
      new KeySecurityService(database, keys, now, auditTrail),
    expiryNotices: ({ database, logger, now }) => new ExpiryNotices(database, logger, now),
  },
  // every instance sweeps; the rows decide who sends
  jobs: (services) => [services.expiryNotices],
  events: Object.values(keyEvents), // in declaration order
});
