import { expect } from "bun:test";
import { asc, eq, inArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { OrgitApp } from "../../src/app.ts";
import { SCOPES } from "../../src/auth/permissions.ts";
import type { Database } from "../../src/db/client.ts";
import * as schema from "../../src/db/schema/index.ts";
import type { Factories } from "../helpers/harness.ts";

/** Every scope, so a test is refused only by the organization boundary. */
export const ALL_SCOPES = [...SCOPES];

/** Two PRO organizations, each with an admin whose key holds every scope. */
export async function twoOrganizations(make: Factories) {
  const a = await make.member({ scopes: ALL_SCOPES });
  const b = await make.member({ scopes: ALL_SCOPES });
  return { a, b };
}

type OrgTable = PgTable & { organizationId: PgColumn };

/** The tables with an organization_id column (the same list tests/isolation/scan.ts finds). */
const ORG_TABLES: Record<string, OrgTable> = {
  alerts: schema.alerts,
  apiKeys: schema.apiKeys,
  changes: schema.changes,
  enrollmentTokens: schema.enrollmentTokens,
  equipment: schema.equipment,
  equipmentUnits: schema.equipmentUnits,
  groups: schema.groups,
  ingestSources: schema.ingestSources,
  memberships: schema.memberships,
  projects: schema.projects,
  quotaUsage: schema.quotaUsage,
  roles: schema.roles,
  ticketComments: schema.ticketComments,
  tickets: schema.tickets,
  webhookEvents: schema.webhookEvents,
  webhookSubscriptions: schema.webhookSubscriptions,
};

/**
 * Every stored row of one organization, table by table (deliveries and group members through
 * their parents, idempotency records through the organization's keys), in a stable order. Two
 * equal snapshots mean nothing of the organization was written in between.
 */
export async function organizationRows(database: Database, organizationId: string) {
  const { db } = database;
  const out: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(ORG_TABLES)) {
    const rows = await db.select().from(table).where(eq(table.organizationId, organizationId));
    out[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  const subscriptionIds = (out.webhookSubscriptions as string[]).map((r) => JSON.parse(r).id);
  out.webhookDeliveries =
    subscriptionIds.length === 0
      ? []
      : (
          await db
            .select()
            .from(schema.webhookDeliveries)
            .where(inArray(schema.webhookDeliveries.subscriptionId, subscriptionIds))
            .orderBy(asc(schema.webhookDeliveries.id))
        ).map((row) => JSON.stringify(row));
  const groupIds = (out.groups as string[]).map((r) => JSON.parse(r).id);
  out.groupMembers =
    groupIds.length === 0
      ? []
      : (
          await db
            .select()
            .from(schema.groupMembers)
            .where(inArray(schema.groupMembers.groupId, groupIds))
        )
          .map((row) => JSON.stringify(row))
          .sort();
  const keyIds = (out.apiKeys as string[]).map((r) => JSON.parse(r).id);
  out.idempotencyKeys =
    keyIds.length === 0
      ? []
      : (
          await db
            .select()
            .from(schema.idempotencyKeys)
            .where(inArray(schema.idempotencyKeys.apiKeyId, keyIds))
        )
          .map((row) => JSON.stringify(row))
          .sort();
  return out;
}

/** Writes what the app batches in memory (key last use, quota counts) to the database. */
export async function flushBatches(app: OrgitApp) {
  await app.services.keys.flushLastUsed();
  await app.services.limits.quota.sync();
}

/**
 * Runs `act` and checks that not one row of `organizationId` changed meanwhile, batched
 * writes included (flushed before and after, so an earlier request's pending write of the
 * watched organization is not mistaken for a leak).
 */
export async function expectUntouched(
  app: OrgitApp,
  organizationId: string,
  act: () => Promise<unknown>,
) {
  const { database } = app.services;
  await flushBatches(app);
  const before = await organizationRows(database, organizationId);
  const total = Object.values(before).reduce((sum, rows) => sum + rows.length, 0);
  // an empty organization would make the check vacuous
  expect(total, "the watched organization has rows").toBeGreaterThan(2);
  await act();
  await flushBatches(app);
  expect(await organizationRows(database, organizationId)).toEqual(before);
}
