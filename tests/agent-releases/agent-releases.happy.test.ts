import { beforeEach, expect, test } from "bun:test";
import { agentReleases } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

const PATH = "/api/v1/agent-releases";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const release = async (version: string, platform: string, channel: string, at: string) => {
    const [row] = await db.database.db
      .insert(agentReleases)
      .values({
        version,
        platform,
        architecture: "x86_64",
        channel,
        downloadUrl: `https://downloads.example/${version}/${platform}`,
        sha256: "a".repeat(64),
        releasedAt: new Date(at),
      })
      .returning();
    return row as typeof agentReleases.$inferSelect;
  };

  // releases are global, not per organization: each test starts from none and adds its own,
  // so the tests pass alone and in any order
  beforeEach(async () => {
    await db.database.db.delete(agentReleases);
  });

  test("every field, newest release first, with no scope needed", async () => {
    const old = await release("1.0.0", "windows", "stable", "2026-01-01T00:00:00Z");
    const beta = await release("1.1.0-beta.1", "linux", "beta", "2026-02-01T00:00:00Z");
    const { key } = await make.member({ scopes: ["tickets:read"] });
    const { status, body } = await getJson(app, PATH, key);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          id: beta.id,
          version: "1.1.0-beta.1",
          platform: "linux",
          architecture: "x86_64",
          channel: "beta",
          releasedAt: "2026-02-01T00:00:00.000Z",
          downloadUrl: "https://downloads.example/1.1.0-beta.1/linux",
          sha256: "a".repeat(64),
        },
        {
          id: old.id,
          version: "1.0.0",
          platform: "windows",
          architecture: "x86_64",
          channel: "stable",
          releasedAt: "2026-01-01T00:00:00.000Z",
          downloadUrl: "https://downloads.example/1.0.0/windows",
          sha256: "a".repeat(64),
        },
      ],
      pagination: { total: 2, limit: 50, offset: 0 },
    });
  });

  test("platform and channel filter, alone and together; an unknown channel lists nothing", async () => {
    await release("2.0.0", "windows", "stable", "2026-03-01T00:00:00Z");
    await release("2.0.0", "macos", "stable", "2026-03-01T00:00:00Z");
    await release("2.1.0-rc.1", "windows", "beta", "2026-03-02T00:00:00Z");
    const { key } = await make.member({ scopes: ["dashboards:read"] });
    const pick = async (query: string) => {
      const { status, body } = await getJson(app, `${PATH}?${query}`, key);
      expect(status).toBe(200);
      expect(body.pagination.total).toBe(body.data.length);
      return body.data.map((r: { version: string; platform: string; channel: string }) => r);
    };
    for (const r of await pick("platform=windows")) expect(r.platform).toBe("windows");
    for (const r of await pick("channel=beta")) expect(r.channel).toBe("beta");
    const both = await pick("platform=windows&channel=stable");
    expect(both.map((r: { version: string }) => r.version)).toContain("2.0.0");
    for (const r of both) expect([r.platform, r.channel]).toEqual(["windows", "stable"]);
    expect(await pick("channel=nightly")).toEqual([]);
    expect(await pick("platform=macos")).toHaveLength(1);
  });

  test("the same global list for keys of different organizations; pages are stable", async () => {
    for (let day = 1; day <= 5; day++)
      await release(`3.0.${day}`, "linux", "stable", `2026-04-0${day}T00:00:00Z`);
    // two of the same instant: the id breaks the tie, so pages stay stable
    await release("3.0.9", "windows", "stable", "2026-04-05T00:00:00Z");
    const a = await make.member({ scopes: ["equipment:read"] });
    const b = await make.member({ scopes: ["users:read"] });
    expect((await getJson(app, PATH, a.key)).body.pagination.total).toBe(6);
    expect((await getJson(app, PATH, a.key)).body).toEqual((await getJson(app, PATH, b.key)).body);
    await expectStablePages(app, PATH, a.key);
  });

  test("GraphQL agentReleases answers the same filtered page", async () => {
    await release("4.0.0", "windows", "stable", "2026-05-01T00:00:00Z");
    await release("4.1.0", "windows", "beta", "2026-05-02T00:00:00Z");
    await release("4.2.0", "windows", "stable", "2026-05-03T00:00:00Z");
    await release("4.2.0", "linux", "stable", "2026-05-03T00:00:00Z");
    const { key } = await make.member();
    const rest = (await getJson(app, `${PATH}?platform=windows&limit=2`, key)).body;
    const { json } = await graphql(
      app,
      key,
      `{ agentReleases(platform: "windows", limit: 2) {
          data { id version platform architecture channel releasedAt downloadUrl sha256 }
          pagination { total limit offset } } }`,
    );
    expect(json.data.agentReleases).toEqual(rest);
    expect(rest.data.map((r: { version: string }) => r.version)).toEqual(["4.2.0", "4.1.0"]);
    expect(rest.pagination).toEqual({ total: 3, limit: 2, offset: 0 });
  });
}

describeEachDriver("agent releases (happy)", suite);
