import { eq } from "drizzle-orm";
import { randomBase62 } from "../auth/keys.ts";
import { SCOPES } from "../auth/permissions.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { organizations } from "../db/schema/index.ts";
import type { Services } from "../services.ts";
import { seedAgentReleases } from "./releases.ts";
import {
  type DemoPeople,
  seedAlerts,
  seedEquipment,
  seedGroups,
  seedTickets,
  seedUnits,
} from "./rows.ts";

export const DEMO_ORGANIZATION = "Acme Corp (demo)";

/**
 * Demo data for `bun dev` / `npm run demo`: a PRO organization with an admin and a technician
 * and a few rows of every resource, then a fresh all-scopes key for the admin, printed once.
 * Idempotent over a persistent DATA_DIR: the rows are created once, a new key every start.
 */
export async function seedDemo(services: Services, config: Config): Promise<{ secret: string }> {
  const { db } = services.database;
  const existing = await db.query.organizations.findFirst({
    where: eq(organizations.name, DEMO_ORGANIZATION),
  });
  const people = existing
    ? { orgId: existing.id, adminId: await findDemoAdmin(db, existing.id) }
    : await seedOrganization(services);
  const { secret } = await services.apiKeys.createApiKey({
    organizationId: people.orgId,
    userId: people.adminId,
    // one key per start of the demo, told apart by when it was made
    name: `Demo key, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    scopes: [...SCOPES],
    expiresIn: "DAYS_30",
  });
  // a fresh password at every start, so a demo never runs with a known default password
  const password = `demo-${randomBase62(16)}`;
  await services.accounts.setPassword(people.adminId, password);
  const adminUser = await db.query.users.findFirst({
    where: (u, { eq: equal }) => equal(u.id, people.adminId),
  });
  printBanner(config, { secret, password, email: adminUser?.email });
  return { secret };
}

/** The first start over a DATA_DIR: the organization, its people, then every kind of row. */
async function seedOrganization(services: Services): Promise<DemoPeople> {
  const { db } = services.database;
  const people = await seedPeople(services.operator);
  const units = await seedUnits(db, people.orgId);
  const devices = await seedEquipment(db, people, units);
  await seedTickets(db, people, devices);
  await seedAlerts(db, people.orgId, devices);
  await seedGroups(db, people);
  await seedAgentReleases(db);
  return people;
}

/** The PRO organization, Alice (admin) and Bob (technician), and the local ingest source. */
async function seedPeople(operator: Services["operator"]): Promise<DemoPeople> {
  const org = await operator.createOrganization({ name: DEMO_ORGANIZATION, plan: "PRO" });
  const admin = await operator.createUser({
    email: "alice@acme.example",
    firstName: "Alice",
    lastName: "Admin",
  });
  const tech = await operator.createUser({
    email: "bob@acme.example",
    firstName: "Bob",
    lastName: "Tech",
  });
  await operator.addMember({ organizationId: org.id, userId: admin.id, role: "admin" });
  await operator.addMember({ organizationId: org.id, userId: tech.id, role: "technician" });
  await operator.addIngestSource({
    organizationId: org.id,
    cidr: "127.0.0.1/32",
    label: "local monitoring",
  });
  // no ::1 source: the demo listens on 127.0.0.1 (HOST), so no IPv6 caller can reach it
  return { orgId: org.id, adminId: admin.id, techId: tech.id };
}

/** A later start: the admin the first start created. */
async function findDemoAdmin(db: Db, orgId: string): Promise<string> {
  const admin = await db.query.memberships.findFirst({
    where: (m, { and, eq: equal }) => and(equal(m.organizationId, orgId), equal(m.role, "admin")),
  });
  if (!admin) throw new Error(`${DEMO_ORGANIZATION} has no admin member`);
  return admin.userId;
}

/** The lines `npm run demo` prints once: the key, the sign-in and a first curl. */
function printBanner(
  config: Config,
  { secret, password, email }: { secret: string; password: string; email?: string },
): void {
  const base = config.publicBaseUrl;
  const lines = [
    "",
    "  orgit demo is ready",
    `  organization : ${DEMO_ORGANIZATION} (PRO plan)`,
    `  API key      : ${secret}   (admin, every scope, valid 30 days)`,
    config.adminToken
      ? `  admin token  : ${config.adminToken}   (operator API at /graphql; npx orgit help)`
      : "",
    `  sign in      : ${base}/login   as ${email} / ${password}   (API keys in the browser)`,
    `  API docs     : ${base}/swagger`,
    "",
    "  Try it:",
    `    curl -H "Authorization: Bearer ${secret}" ${base}/api/v1/whoami`,
    "",
  ];
  console.log(
    lines
      .filter((l, i) => l !== "" || i === 0 || i === lines.length - 1 || lines[i - 1] !== "")
      .join("\n"),
  );
}
