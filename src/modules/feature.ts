import type { AnyElysia } from "elysia";
import type { OperationBridge } from "../graphql/bridge.ts";
import type { Resolvers } from "../graphql/schema.ts";
import type { ApiKeyAuthDeps } from "../http/auth.ts";
import type { IdempotencyDeps } from "../http/idempotency.ts";
import type { OpenApiNames } from "../openapi/names.ts";
import type { WebhookEvent } from "../outbox/events.ts";
import type { DomainServices, Infrastructure } from "../services.ts";

/** What app.ts offers a feature's routes; each feature hands its plugins only what they use. */
export interface RouteContext {
  infra: Infrastructure;
  services: DomainServices;
  /** API-key authentication and the limits that follow it (http/auth.ts) */
  auth: ApiKeyAuthDeps;
  /** the store of idempotent POSTs' first answers (http/idempotency.ts) */
  idempotency: IdempotencyDeps;
  /** runs pre-parsed operations as a key or a signed-in member */
  operations: OperationBridge;
  /** every webhook event type the features declare, in their order */
  eventTypes: readonly string[];
}

/** What a feature's service builders get besides the infrastructure. */
export interface ServiceContext {
  /** every webhook event the features declare (type, read scope, payload), in their order */
  events: readonly WebhookEvent[];
}

/** How each of a feature's domain services is built (the keys it adds to DomainServices). */
export type ServiceBuilders = {
  [K in keyof DomainServices]?: (
    infra: Infrastructure,
    context: ServiceContext,
  ) => DomainServices[K];
};

/**
 * Everything about one feature, declared in its folder's `index.ts` (GraphQL Hive's
 * `createModule` is the model): src/features.ts lists the features, and app.ts, the
 * schema, the OpenAPI names and the webhook event types read that list.
 */
export interface Feature {
  /** the folder's name */
  name: string;
  /** its REST routes (or pages), mounted in the list's order */
  routes?: (context: RouteContext) => AnyElysia[];
  /** its part of the GraphQL schema's resolvers (its SDL is schema/<feature>.graphql) */
  resolvers?: Resolvers;
  services?: ServiceBuilders;
  /** the webhook event types it emits, each with its read scope and payload schema */
  events?: readonly WebhookEvent[];
  /** its routes' operation ids and its tags' descriptions in the OpenAPI document */
  openapi?: Partial<OpenApiNames>;
  /** periodic work started with the app and stopped with it (retention runs…) */
  jobs?: (services: DomainServices) => BackgroundJob[];
}

/** A feature's periodic work: started after the app is built, awaited when it stops. */
export interface BackgroundJob {
  start(): void;
  stop(): Promise<void>;
}

/** Declares a feature; the identity function, there for the type check and the reader. */
export const defineFeature = (feature: Feature): Feature => feature;
