import { expect, test } from "bun:test";
import { startServiceProcess } from "../helpers/service-process.ts";

/**
 * `npm start` is the production command of docs/deploying.md: a SIGTERM to it (what a process
 * manager sends) must reach the service itself, which shuts down and frees its port, instead of
 * stopping npm's shell and leaving the service running with no parent.
 */

/** every process below `pid`, read from ps (so a failed run can still clean up after itself) */
function descendants(pid: number): number[] {
  const table = Bun.spawnSync(["ps", "-e", "-o", "pid=,ppid="]).stdout.toString();
  const children = new Map<number, number[]>();
  for (const line of table.trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

test("SIGTERM to `npm start` shuts the service down and closes its port", async () => {
  const service = await startServiceProcess({
    command: ["npm", "start", "--silent"],
    adminToken: "npm-start-operator-token-0123",
    startTimeoutMs: 60_000,
    label: "npm start",
  });
  const below = descendants(service.pid);
  try {
    expect((await fetch(`${service.base}/livez`)).status).toBe(200);
    await service.stop();
    const after = await fetch(`${service.base}/livez`).then(
      (r) => `answered ${r.status}`,
      () => "closed",
    );
    expect(after, `the port must be closed once npm has exited${service.output()}`).toBe("closed");
    expect(service.output(), "the service logged its graceful shutdown").toContain("shutting down");
  } finally {
    for (const pid of below) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone, as it should be
      }
    }
  }
}, 90_000);
