import type { Db } from "../db/client.ts";
import { single } from "../db/errors.ts";
import {
  alerts,
  equipment,
  equipmentUnits,
  groupMembers,
  groups,
  tickets,
} from "../db/schema/index.ts";

/** The demo organization's people, as the rows below refer to them. */
export interface DemoPeople {
  orgId: string;
  adminId: string;
  techId: string;
}

export interface DemoUnits {
  hq: { id: string };
  it: { id: string };
}

/** Headquarters with its IT department, and a branch without children. */
export async function seedUnits(db: Db, orgId: string): Promise<DemoUnits> {
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
  return { hq, it };
}

type Device = { id: string };
export type DemoDevices = [ws: Device, mbp: Device, srv: Device, vm: Device, printer: Device];

/** Five devices of every kind and status, assigned to the demo's units and people. */
export async function seedEquipment(
  db: Db,
  { orgId, adminId, techId }: DemoPeople,
  { hq, it }: DemoUnits,
): Promise<DemoDevices> {
  const base = { organizationId: orgId };
  return (await db
    .insert(equipment)
    .values([
      {
        ...base,
        name: "ws-alice",
        type: "workstation",
        platform: "windows",
        location: "HQ, floor 2",
        unitId: it.id,
        assignedUserId: adminId,
        status: "online",
      },
      {
        ...base,
        name: "mbp-bob",
        type: "laptop",
        platform: "macos",
        unitId: it.id,
        assignedUserId: techId,
        status: "online",
      },
      {
        ...base,
        name: "srv-files-01",
        type: "server",
        platform: "linux",
        location: "HQ server room",
        unitId: hq.id,
        managedBy: "infra-team",
        status: "online",
      },
      {
        ...base,
        name: "vm-build-02",
        type: "virtual_machine",
        platform: "linux",
        unitId: it.id,
        status: "offline",
      },
      {
        ...base,
        name: "printer-2f",
        type: "printer",
        platform: "other",
        location: "HQ, floor 2",
        unitId: hq.id,
        status: "pending",
      },
    ])
    .returning()) as unknown as DemoDevices;
}

/** Three tickets: an open one, one in progress on the file server, one on Alice's workstation. */
export async function seedTickets(
  db: Db,
  { orgId, adminId, techId }: DemoPeople,
  [ws, , srv]: DemoDevices,
): Promise<void> {
  await db.insert(tickets).values([
    {
      organizationId: orgId,
      title: "Printer jams on floor 2",
      description: "The floor 2 printer jams on every duplex job.",
      priority: "low",
      createdBy: techId,
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
}

/** Three alerts, one per status: open critical, acknowledged warning, resolved info. */
export async function seedAlerts(db: Db, orgId: string, [, , srv, vm]: DemoDevices): Promise<void> {
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
}

/** Helpdesk (Bob) and Infrastructure (Alice and Bob). */
export async function seedGroups(db: Db, { orgId, adminId, techId }: DemoPeople): Promise<void> {
  const [helpdesk, infra] = (await db
    .insert(groups)
    .values([
      { organizationId: orgId, name: "Helpdesk", description: "First-line support" },
      { organizationId: orgId, name: "Infrastructure", description: "Servers and network" },
    ])
    .returning()) as unknown as [{ id: string }, { id: string }];
  await db.insert(groupMembers).values([
    { groupId: helpdesk.id, userId: techId },
    { groupId: infra.id, userId: adminId },
    { groupId: infra.id, userId: techId },
  ]);
}
