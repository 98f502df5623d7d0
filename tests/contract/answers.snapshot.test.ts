import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send } from "../helpers/harness.ts";
import { snapshotApp } from "./snapshot-app.ts";

/**
 * The REST contract must not move while its internals are made faster: a few hot answers,
 * status line, the headers a client reads and the body's exact bytes, compared with a snapshot
 * taken before the performance work. Data and clock are fixed; ids (random UUIDs) are replaced
 * by their order of first appearance, so only what the service chose to write is compared.
 */

const SHOWN_HEADERS = [
  "content-type",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit-policy",
  "ratelimit",
  "retry-after",
  "x-quota-limit",
  "x-quota-used",
  "x-quota-remaining",
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function suite(driver: DriverName) {
  const { clock, app, make } = snapshotApp(driver);

  test("hot answers are byte-for-byte the snapshot's", async () => {
    const ids = new Map<string, string>();
    const stable = (text: string) =>
      text.replace(/\/install\/[A-Za-z0-9]+/g, "/install/<token>").replace(UUID, (id) => {
        let name = ids.get(id);
        if (!name) {
          name = `<id-${ids.size + 1}>`;
          ids.set(id, name);
        }
        return name;
      });
    const transcript: string[] = [];
    const record = async (label: string, response: Response) => {
      const headers = SHOWN_HEADERS.flatMap((name) => {
        const value = response.headers.get(name);
        return value === null ? [] : [`${name}: ${value}`];
      });
      transcript.push(`### ${label}`, `${response.status}`, ...headers, await response.text(), "");
    };

    const { key, user, organizationId } = await make.member({
      scopes: ["tickets:read", "tickets:write", "equipment:read", "equipment:write"],
    });
    stable(user.id);
    const priorities = ["low", "medium", "high", "critical"];
    for (let i = 0; i < 6; i++) {
      clock.advance(1_000); // distinct created_at: the order does not depend on random ids
      const body = {
        title: `Ticket number ${i}`,
        description: `Description of ticket ${i}, long enough.`,
        priority: priorities[i % 4],
      };
      await record(`POST /tickets ${i}`, await send(app, "/api/v1/tickets", { key, body }));
    }
    for (const items of [
      [{ name: "Laptop A", type: "laptop", platform: "macos" }],
      [{ name: "Server B", type: "server", platform: "linux", location: "Rack 4" }],
    ]) {
      clock.advance(1_000); // one at a time: the same created_at would order by random id
      await record(
        "POST /equipments/bulk-create",
        await send(app, "/api/v1/equipments/bulk-create", { key, body: { items } }),
      );
    }
    for (const path of [
      "/api/v1/whoami",
      "/api/v1/tickets",
      "/api/v1/tickets?limit=2&offset=1",
      "/api/v1/tickets?priority=low",
      "/api/v1/tickets?status=open&limit=3",
      "/api/v1/tickets?status=closed",
      "/api/v1/tickets?limit=0",
      "/api/v1/equipments",
      "/api/v1/equipments?status=pending&limit=1",
      "/api/v1/health",
    ]) {
      await record(`GET ${path}`, await send(app, path, { key }));
    }
    await record("GET /api/v1/whoami (no key)", await send(app, "/api/v1/whoami"));
    await record("GET /api/v1/whoami (bad key)", await send(app, "/api/v1/whoami", { key: "x" }));

    // an owner-only key (no tickets.view_all) sees the one ticket it created
    await make.role(organizationId, "reporter", "TECHNICIAN", ["tickets.manage"]);
    const reporter = await make.member({
      organizationId,
      role: "reporter",
      scopes: ["tickets:read", "tickets:write"],
    });
    clock.advance(1_000);
    const mine = { title: "Mine only", description: "Created by the reporter key." };
    await record(
      "POST /tickets (reporter)",
      await send(app, "/api/v1/tickets", { ...reporter, body: mine }),
    );
    await record("GET /api/v1/tickets (reporter)", await send(app, "/api/v1/tickets", reporter));

    const spent = await make.member({ scopes: ["tickets:read"] });
    await app.services.operator.updateOrganization(spent.organizationId, { dailyQuota: 2 });
    for (let i = 1; i <= 3; i++) {
      await record(`GET /api/v1/tickets quota ${i}`, await send(app, "/api/v1/tickets", spent));
    }
    expect(stable(transcript.join("\n"))).toMatchSnapshot();
  });
}

describeEachDriver("REST answers (snapshot)", suite);
