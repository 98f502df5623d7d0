import type { AuditTrail } from "./auth/audit-trail.ts";
import type { KeyStore } from "./auth/key-store.ts";
import type { ScryptParams } from "./auth/passwords.ts";
import type { SessionStore } from "./auth/sessions.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { Limits } from "./limits/limits.ts";
import type { Logger } from "./logger.ts";
import type { LiveHub } from "./outbox/live.ts";
import type { WebhookSecretBox } from "./outbox/secret-box.ts";
import type { Resolve } from "./outbox/ssrf.ts";

/**
 * What app.ts builds before any feature: the collaborators every floor may be handed, each
 * plugin only the members it uses. Features build their domain services from it.
 */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  database: Database;
  /** rate limits and daily quota; `noLimits` when built with `limits: false` (bench baseline) */
  limits: Limits;
  /** API keys by secret, cached and invalidated across instances */
  keys: KeyStore;
  /** the settings screen's sign-in sessions */
  sessions: SessionStore;
  /** records requests and key/session events: `auditTrail.record({ kind, organizationId, … })` */
  auditTrail: AuditTrail;
  /** the route templates the app answers (filled once its routes are mounted) */
  routeTemplates: Set<string>;
  /** seals and opens webhook signing secrets at rest (WEBHOOK_SECRET_KEY, docs/security.md) */
  webhookSecrets: WebhookSecretBox;
  /** DNS lookups of the webhook SSRF guard; tests inject one (default: the system's) */
  resolveHost?: Resolve;
  /** GraphQL subscriptions: changes heard from every instance, open streams per key */
  live: LiveHub;
  /** injectable clock for expiry, rate-limit buckets, quota windows and event times */
  now: () => Date;
  /** scrypt's parameters for new password hashes: OWASP's unless a test passes lighter ones */
  passwordHashing: ScryptParams;
}

/**
 * The domain services resolvers reach through the GraphQL context. Each feature adds its own
 * members from its `index.ts` (`declare module "../../services.ts"`), next to how it builds
 * them, so this file names no feature.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each feature's declaration merging
export interface DomainServices {}

/** The running app's handle (tests, the demo, the CLI): infrastructure and domain together. */
export type Services = Infrastructure & DomainServices;
