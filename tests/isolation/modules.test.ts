import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { alerts, equipmentUnits, groupMembers, groups } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

/**
 * Tenant isolation of interface A's features and the projects API: for each query site listed
 * in tests/isolation/registry.ts, organization B acts with every scope and an admin role, and
 * organization A's rows stay exactly as they were (expectUntouched compares every table).
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const json = async (
    path: string,
    key: string,
    init: { method?: string; body?: unknown } = {},
  ) => {
    const response = await send(app, path, { key, ...init });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
    return { status: response.status, body: (await response.json()) as any };
  };
  const ids = (body: { data: { id: string }[] }) => body.data.map((row) => row.id);

  test("tickets: B lists only its own, with a total that counts only its own; creates in its own organization, cannot cite A's equipment", async () => {
    const { a, b } = await twoOrganizations(make);
    const bulk = await json("/api/v1/equipments/bulk-create", a.key, {
      body: { items: [{ name: "a-ws", type: "workstation" }] },
    });
    const aEquipment = bulk.body.items[0].id;
    const aTicket = await json("/api/v1/tickets", a.key, {
      body: { title: "A's ticket", description: "only A may see this", equipmentId: aEquipment },
    });
    expect(aTicket.status).toBe(201);
    // more of A's tickets than B's, in the shapes B asks for: a total summing every
    // organization's ticket_counts would show them
    const aOther = await json("/api/v1/tickets", a.key, {
      body: { title: "A's other", description: "also only A's", priority: "medium" },
    });
    expect(aOther.status).toBe(201);
    let bTicket = "";
    await expectUntouched(app, a.organizationId, async () => {
      const cited = await json("/api/v1/tickets", b.key, {
        body: { title: "B cites A", description: "should be refused", equipmentId: aEquipment },
      });
      expect(cited.status, "A's equipment is unknown to B").toBe(400);
      expect(cited.body.details).toEqual([
        { path: ["equipmentId"], message: expect.stringMatching(/equipment/i) },
      ]);
      const created = await json("/api/v1/tickets", b.key, {
        body: { title: "B's ticket", description: "B's own ticket" },
      });
      expect(created.status).toBe(201);
      bTicket = created.body.id;
      const listed = await json("/api/v1/tickets", b.key);
      expect(ids(listed.body)).toEqual([bTicket]);
      expect(listed.body.pagination.total, "A's tickets are not counted").toBe(1);
      const filtered = await json("/api/v1/tickets?status=open&priority=medium", b.key);
      expect(ids(filtered.body)).toEqual([bTicket]);
      expect(filtered.body.pagination.total).toBe(1);
      // past the last row the total comes from its own statement
      const beyond = await json("/api/v1/tickets?offset=5", b.key);
      expect(beyond.body).toMatchObject({ data: [], pagination: { total: 1, offset: 5 } });
    });
    const own = await json("/api/v1/tickets", a.key);
    expect(ids(own.body).sort()).toEqual([aOther.body.id, aTicket.body.id].sort());
    expect(own.body.pagination.total).toBe(2);
  });

  test("equipment: B lists only its own; bulk-create refuses A's unit and A's member; install links resolve to their own equipment", async () => {
    const { a, b } = await twoOrganizations(make);
    const [aUnit] = await db.database.db
      .insert(equipmentUnits)
      .values({ organizationId: a.organizationId, name: "A HQ" })
      .returning();
    const aBulk = await json("/api/v1/equipments/bulk-create", a.key, {
      body: {
        items: [{ name: "a-1", type: "laptop", unitId: aUnit?.id, assignToUserId: a.user.id }],
      },
    });
    expect(aBulk.status).toBe(201);
    const aInstall = new URL(aBulk.body.items[0].installUrl).pathname;
    await expectUntouched(app, a.organizationId, async () => {
      const refused = await json("/api/v1/equipments/bulk-create", b.key, {
        body: {
          items: [
            { name: "b-unit", type: "laptop", unitId: aUnit?.id },
            { name: "b-user", type: "laptop", assignToUserId: a.user.id },
            { name: "b-ok", type: "server" },
          ],
        },
      });
      expect(refused.status).toBe(201);
      expect(refused.body.created).toBe(1);
      expect(refused.body.errors.map((e: { index: number }) => e.index)).toEqual([0, 1]);
      const listed = await json("/api/v1/equipments", b.key);
      expect(listed.body.data.map((e: { name: string }) => e.name)).toEqual(["b-ok"]);
      expect(listed.body.pagination.total).toBe(1);
      const installB = await json(new URL(refused.body.items[0].installUrl).pathname, b.key);
      expect(installB.status).toBe(200);
      expect(JSON.stringify(installB.body)).toContain(refused.body.items[0].id);
    });
    // reading an install link (bulk tokens are reusable) consumes nothing and names A's equipment
    const installA = await json(aInstall, b.key);
    expect(JSON.stringify(installA.body)).toContain(aBulk.body.items[0].id);
    const own = await json("/api/v1/equipments", a.key);
    expect(own.body.data.map((e: { name: string }) => e.name)).toEqual(["a-1"]);
  });

  test("units, users and groups: each organization lists only its own; memberCount counts only members of the group's organization", async () => {
    const { a, b } = await twoOrganizations(make);
    const { db: d } = db.database;
    await d.insert(equipmentUnits).values({ organizationId: a.organizationId, name: "A unit" });
    const [aGroup] = await d
      .insert(groups)
      .values({ organizationId: a.organizationId, name: "A group" })
      .returning();
    // B's admin sits in A's group row without being A's member: A must not count them
    await d.insert(groupMembers).values([
      { groupId: aGroup?.id as string, userId: a.user.id },
      { groupId: aGroup?.id as string, userId: b.user.id },
    ]);
    await expectUntouched(app, a.organizationId, async () => {
      await d.insert(equipmentUnits).values({ organizationId: b.organizationId, name: "B unit" });
      const units = await json("/api/v1/equipment-units", b.key);
      expect(units.body.data.map((u: { name: string }) => u.name)).toEqual(["B unit"]);
      const users = await json("/api/v1/users", b.key);
      expect(users.body.data.map((u: { userId: string }) => u.userId)).toEqual([b.user.id]);
      const bGroups = await json("/api/v1/groups", b.key);
      expect(bGroups.body).toMatchObject({ data: [], pagination: { total: 0 } });
    });
    const aGroups = await json("/api/v1/groups", a.key);
    expect(aGroups.body.data).toEqual([
      expect.objectContaining({ name: "A group", memberCount: 1 }),
    ]);
    const aUsers = await json("/api/v1/users", a.key);
    expect(aUsers.body.data.map((u: { userId: string }) => u.userId)).toEqual([a.user.id]);
  });

  async function monitored(member: { organizationId: string }, cidr: string) {
    await app.services.operator.addIngestSource({ organizationId: member.organizationId, cidr });
  }
  const ingest = async (body: unknown, peer: string) => {
    const response = await send(app, "/api/v1/alerts/ingest", { method: "POST", body, peer });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
    return { status: response.status, body: (await response.json()) as any };
  };

  test("alerts: ingest lands in the organization owning the source address; B lists only its own and cannot cite A's equipment", async () => {
    const { a, b } = await twoOrganizations(make);
    await monitored(a, "198.51.100.0/24");
    await monitored(b, "203.0.113.0/24");
    const aBulk = await json("/api/v1/equipments/bulk-create", a.key, {
      body: { items: [{ name: "a-srv", type: "server" }] },
    });
    const aEquipment = aBulk.body.items[0].id;
    const aAlert = await ingest(
      { source: "nagios", title: "A down", equipmentId: aEquipment },
      "198.51.100.9",
    );
    expect(aAlert.status).toBe(202);
    await expectUntouched(app, a.organizationId, async () => {
      const cited = await ingest(
        { source: "nagios", title: "B", equipmentId: aEquipment },
        "203.0.113.9",
      );
      expect(cited.status, "A's equipment is unknown to B's ingest").toBe(400);
      const own = await ingest({ source: "nagios", title: "B down" }, "203.0.113.9");
      expect(own.body).toMatchObject({ received: 1, created: 1, duplicates: 0 });
      const listed = await json("/api/v1/alerts", b.key);
      expect(ids(listed.body)).toEqual(own.body.ids);
    });
    const own = await json("/api/v1/alerts", a.key);
    expect(ids(own.body)).toEqual(aAlert.body.ids);
  });

  test("alerts: the same source + externalId from two organizations are two alerts; each repeat answers its own organization's id", async () => {
    const { a, b } = await twoOrganizations(make);
    await monitored(a, "192.0.2.0/25");
    await monitored(b, "192.0.2.128/25");
    const alert = { source: "zabbix", externalId: "evt-42", title: "CPU hot" };
    const firstA = await ingest(alert, "192.0.2.10");
    const firstB = await ingest(alert, "192.0.2.200");
    expect(firstA.body).toMatchObject({ created: 1, duplicates: 0 });
    expect(firstB.body, "A's alert is no duplicate for B").toMatchObject({
      created: 1,
      duplicates: 0,
    });
    expect(firstB.body.ids[0]).not.toBe(firstA.body.ids[0]);
    // both orders: whichever row the lookup meets last, a missing filter would answer it
    const againA = await ingest(alert, "192.0.2.10");
    const againB = await ingest(alert, "192.0.2.200");
    expect(againA.body).toEqual({ received: 1, created: 0, duplicates: 1, ids: firstA.body.ids });
    expect(againB.body).toEqual({ received: 1, created: 0, duplicates: 1, ids: firstB.body.ids });
    for (const [member, id] of [
      [a, firstA.body.ids[0]],
      [b, firstB.body.ids[0]],
    ] as const) {
      const rows = await db.database.db
        .select({ id: alerts.id })
        .from(alerts)
        .where(eq(alerts.organizationId, member.organizationId));
      expect(rows.map((r) => r.id)).toEqual([id]);
    }
  });

  test("projects: B cannot read, change or delete A's project; its own list and writes stay in B", async () => {
    const { a, b } = await twoOrganizations(make);
    const aProject = await json("/api/projects", a.key, { body: { name: "A secret" } });
    expect(aProject.status).toBe(201);
    const path = `/api/projects/${aProject.body.id}`;
    await expectUntouched(app, a.organizationId, async () => {
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { name: "pwned" }],
        ["DELETE", undefined],
      ] as const) {
        const response = await json(path, b.key, { method, body });
        expect({ method, ...response }).toEqual({
          method,
          status: 404,
          body: { error: "Project not found" },
        });
      }
      const created = await json("/api/projects", b.key, { body: { name: "B own" } });
      expect(created.status).toBe(201);
      const listed = await json("/api/projects", b.key);
      expect(ids(listed.body)).toEqual([created.body.id]);
      expect(listed.body.pagination.total, "A's project is not counted").toBe(1);
      const patched = await json(`/api/projects/${created.body.id}`, b.key, {
        method: "PATCH",
        body: { name: "B renamed" },
      });
      expect(patched.status).toBe(200);
      const deleted = await json(`/api/projects/${created.body.id}`, b.key, { method: "DELETE" });
      expect(deleted.status).toBe(200);
    });
    expect((await json(path, a.key)).body.name).toBe("A secret");
  });

  test("GraphQL: B's key sees none of A's records in any list, and A's project is not found", async () => {
    const { a, b } = await twoOrganizations(make);
    await json("/api/v1/tickets", a.key, {
      body: { title: "A's ticket", description: "A's own ticket" },
    });
    await json("/api/v1/equipments/bulk-create", a.key, {
      body: { items: [{ name: "a-e", type: "laptop" }] },
    });
    const project = await json("/api/projects", a.key, { body: { name: "A p" } });
    await expectUntouched(app, a.organizationId, async () => {
      const lists = await graphql(
        app,
        b.key,
        `{ tickets { pagination { total } } equipments { pagination { total } }
           users { data { userId } } groups { pagination { total } } }`,
      );
      expect(lists.json).toEqual({
        data: {
          tickets: { pagination: { total: 0 } },
          equipments: { pagination: { total: 0 } },
          users: { data: [{ userId: b.user.id }] },
          groups: { pagination: { total: 0 } },
        },
      });
      const theirs = await graphql(app, b.key, "query ($id: ID!) { project(id: $id) { id } }", {
        id: project.body.id,
      });
      expect(theirs.json.errors?.[0]?.message).toBe("Project not found");
      expect(theirs.json.data).toBeNull();
    });
  });
}

describeEachDriver("tenant isolation: features", suite);
