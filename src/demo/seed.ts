import { eq } from "drizzle-orm";
import { randomBase62 } from "../auth/keys.ts";
import { SCOPES } from "../auth/permissions.ts";
import type { Config } from "../config.ts";
import { single } from "../db/errors.ts";
import {
  agentReleases,
  alerts,
  equipment,
  equipmentUnits,
  groupMembers,
  groups,
  organizations,
  tickets,
} from "../db/schema/index.ts";
import type { Services } from "../services.ts";

export const DEMO_ORGANIZATION = "Acme Corp (demo)";

/**
 * Demo data for `bun dev` / `npm run demo`: a PRO organization with an admin and a technician
 * and a few rows of every resource, then a fresh all-scopes key for the admin, printed once.
 * Idempotent over a persistent DATA_DIR: the rows are created once, a new key every start.
 */
export async function seedDemo(services: Services, config: Config): Promise<{ secret: string }> {
  const { db } = services.database;
  const operator = services.operator;
  let org = await db.query.organizations.findFirst({
    where: eq(organizations.name, DEMO_ORGANIZATION),
  });
  let adminId: string;
  if (!org) {
    org = await operator.createOrganization({ name: DEMO_ORGANIZATION, plan: "PRO" });
    const orgId = org.id;
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
    adminId = admin.id;
    await operator.addMember({ organizationId: orgId, userId: adminId, role: "admin" });
    await operator.addMember({ organizationId: orgId, userId: tech.id, role: "technician" });
    await operator.addIngestSource({
      organizationId: orgId,
      cidr: "127.0.0.1/32",
      label: "local monitoring",
    });
    // no ::1 source: the demo listens on 127.0.0.1 (HOST), so no IPv6 caller can reach it

    const hq = single(
      await db
        .insert(equipmentUnits)
        .values({ organizationId: orgId, name: "Headquarters" })
        .returning(),
    );
    const it = single(
      await db
        .insert(equipmentUnits)
        .values({ organizationId: orgId, name: "IT department", parentId: hq.id })
        .returning(),
    );
    await db.insert(equipmentUnits).values({ organizationId: orgId, name: "Lyon branch" });

    const devices = (await db
      .insert(equipment)
      .values([
        {
          organizationId: orgId,
          name: "ws-alice",
          type: "workstation",
          platform: "windows",
          location: "HQ, floor 2",
          unitId: it.id,
          assignedUserId: adminId,
          status: "online",
        },
        {
          organizationId: orgId,
          name: "mbp-bob",
          type: "laptop",
          platform: "macos",
          unitId: it.id,
          assignedUserId: tech.id,
          status: "online",
        },
        {
          organizationId: orgId,
          name: "srv-files-01",
          type: "server",
          platform: "linux",
          location: "HQ server room",
          unitId: hq.id,
          managedBy: "infra-team",
          status: "online",
        },
        {
          organizationId: orgId,
          name: "vm-build-02",
          type: "virtual_machine",
          platform: "linux",
          unitId: it.id,
          status: "offline",
        },
        {
          organizationId: orgId,
          name: "printer-2f",
          type: "printer",
          platform: "other",
          location: "HQ, floor 2",
          unitId: hq.id,
          status: "pending",
        },
      ])
      .returning()) as unknown as [{ id: string }, { id: string }, { id: string }, { id: string }];
    const [ws, , srv, vm] = devices;

    await db.insert(tickets).values([
      {
        organizationId: orgId,
        title: "Printer jams on floor 2",
        description: "The floor 2 printer jams on every duplex job.",
        priority: "low",
        createdBy: tech.id,
      },
      {
        organizationId: orgId,
        title: "File server disk almost full",
        description: "srv-files-01 /data is at 93% and growing.",
        priority: "high",
        status: "in_progress",
        equipmentId: srv.id,
        createdBy: adminId,
      },
      {
        organizationId: orgId,
        title: "VPN drops every hour",
        description: "Alice's workstation loses the VPN connection hourly.",
        equipmentId: ws.id,
        createdBy: adminId,
      },
    ]);

    await db.insert(alerts).values([
      {
        organizationId: orgId,
        source: "prometheus",
        externalId: "disk-srv-files-01",
        severity: "critical",
        title: "Disk usage above 90%",
        message: "/data at 93%",
        equipmentId: srv.id,
      },
      {
        organizationId: orgId,
        source: "prometheus",
        externalId: "cpu-vm-build-02",
        severity: "warning",
        status: "acknowledged",
        title: "High CPU load",
        equipmentId: vm.id,
      },
      {
        organizationId: orgId,
        source: "uptime-kuma",
        externalId: "intranet-down",
        severity: "info",
        status: "resolved",
        title: "Intranet was unreachable for 2 minutes",
      },
    ]);

    const [helpdesk, infra] = (await db
      .insert(groups)
      .values([
        { organizationId: orgId, name: "Helpdesk", description: "First-line support" },
        { organizationId: orgId, name: "Infrastructure", description: "Servers and network" },
      ])
      .returning()) as unknown as [{ id: string }, { id: string }];
    await db.insert(groupMembers).values([
      { groupId: helpdesk.id, userId: tech.id },
      { groupId: infra.id, userId: adminId },
      { groupId: infra.id, userId: tech.id },
    ]);

    const existingReleases = await db.select({ id: agentReleases.id }).from(agentReleases).limit(1);
    if (existingReleases.length === 0) {
      const build = (version: string, platform: string, architecture: string, channel: string) => ({
        version,
        platform,
        architecture,
        channel,
        downloadUrl: `https://downloads.orgit.example/agent/${version}/orgit-agent-${platform}-${architecture}`,
        sha256: Array.from(
          new TextEncoder()
            .encode(`${version}${platform}${architecture}${channel}`.padEnd(32, "0"))
            .slice(0, 32),
          (b) => b.toString(16).padStart(2, "0"),
        ).join(""),
      });
      await db
        .insert(agentReleases)
        .values([
          build("2.3.1", "windows", "x86_64", "stable"),
          build("2.3.1", "linux", "x86_64", "stable"),
          build("2.3.1", "macos", "arm64", "stable"),
          build("2.4.0-beta.1", "windows", "x86_64", "beta"),
        ]);
    }
  } else {
    const orgId = org.id;
    const admin = await db.query.memberships.findFirst({
      where: (m, { and, eq: equal }) => and(equal(m.organizationId, orgId), equal(m.role, "admin")),
    });
    if (!admin) throw new Error(`${DEMO_ORGANIZATION} has no admin member`);
    adminId = admin.userId;
  }

  const { secret } = await services.apiKeys.createApiKey({
    organizationId: org.id,
    userId: adminId,
    name: `demo key ${new Date().toISOString()}`,
    scopes: [...SCOPES],
    expiresIn: "DAYS_30",
  });
  // a fresh password at every start, so a demo never runs with a known default password
  const password = `demo-${randomBase62(16)}`;
  await services.accounts.setPassword(adminId, password);
  const adminUser = await db.query.users.findFirst({
    where: (u, { eq: equal }) => equal(u.id, adminId),
  });
  const base = config.publicBaseUrl;
  const lines = [
    "",
    "  orgit demo is ready",
    `  organization : ${DEMO_ORGANIZATION} (PRO plan)`,
    `  API key      : ${secret}   (admin, every scope, valid 30 days)`,
    config.adminToken
      ? `  admin token  : ${config.adminToken}   (operator API at /graphql; npx orgit help)`
      : "",
    `  sign in      : ${base}/login   as ${adminUser?.email} / ${password}   (API keys in the browser)`,
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
  return { secret };
}
