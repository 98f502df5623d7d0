/**
 * The one list of features. app.ts mounts their routes and builds their services from it;
 * the GraphQL schema takes their resolvers, the OpenAPI document their names, and webhook
 * subscriptions their event types. A new feature is a folder with an `index.ts` and a line
 * here (docs/architecture.md, "How to add a feature").
 */

import { agentReleases } from "./modules/agent-releases/index.ts";
import { alerts } from "./modules/alerts/index.ts";
import { audit } from "./modules/audit/index.ts";
import { changes } from "./modules/changes/index.ts";
import { equipment } from "./modules/equipment/index.ts";
import type { Feature } from "./modules/feature.ts";
import { groups } from "./modules/groups/index.ts";
import { identity } from "./modules/identity/index.ts";
import { keySecurity } from "./modules/key-security/index.ts";
import { operator } from "./modules/operator/index.ts";
import { passkeys } from "./modules/passkeys/index.ts";
import { projects } from "./modules/projects/index.ts";
import { settings } from "./modules/settings/index.ts";
import { tickets } from "./modules/tickets/index.ts";
import { units } from "./modules/units/index.ts";
import { users } from "./modules/users/index.ts";
import { webhooks } from "./modules/webhooks/index.ts";
import { mergeOpenApiNames } from "./openapi/names.ts";

/** In the order their routes are mounted (the OpenAPI document lists paths in this order). */
export const FEATURES: readonly Feature[] = [
  identity,
  units,
  groups,
  users,
  agentReleases,
  alerts,
  tickets,
  equipment,
  projects,
  webhooks,
  changes,

  audit,
  operator,
  settings,
  passkeys,
  keySecurity,
];

/** Every feature's resolvers, for the one schema. */
export const FEATURE_RESOLVERS = FEATURES.flatMap((f) => (f.resolvers ? [f.resolvers] : []));

/** Every webhook event type, with its read scope and payload schema. */
export const WEBHOOK_EVENTS = FEATURES.flatMap((f) => f.events ?? []);

/** The event types a subscription may choose. */
export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS.map((event) => event.type);

/** Operation ids and tag descriptions of the OpenAPI document. */
export const OPENAPI_NAMES = mergeOpenApiNames(FEATURES.map((f) => f.openapi ?? {}));
