import { describe, expect, test } from "bun:test";
import { freePort, ROOT } from "../helpers/service-process.ts";

/**
 * What an operator sees when the service cannot start or starts without operator access: one
 * plain line that says what failed and what to do, no driver stack, no password from the URL.
 */
const BUN = `${ROOT}node_modules/.bin/bun`;

async function start(env: Record<string, string>, untilLine?: RegExp) {
  const child = Bun.spawn([BUN, "run", "src/index.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (!untilLine) {
    const code = await child.exited;
    return {
      code,
      stderr: await new Response(child.stderr).text(),
      stdout: await new Response(child.stdout).text(),
    };
  }
  // a service that started: read its stderr until the expected line, then stop it
  let stderr = "";
  const reader = child.stderr.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 60_000;
  while (!untilLine.test(stderr) && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    stderr += decoder.decode(value, { stream: true });
  }
  child.kill("SIGTERM");
  const code = await child.exited;
  return { code, stderr, stdout: "" };
}

describe("start-up messages", () => {
  test("an unreachable database: one plain line naming it, without the password, exit 1", async () => {
    const port = await freePort();
    const run = await start({
      PORT: String(port),
      DATABASE_URL: `postgres://ops:s3cret-pw@127.0.0.1:${port}/orgit`,
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toStartWith(
      "orgit could not start: cannot use the database (Postgres at 127.0.0.1:",
    );
    expect(lines[0]).toContain("check DATABASE_URL");
    expect(run.stderr, "no password in the message").not.toContain("s3cret-pw");
    expect(run.stderr, "no stack").not.toContain("    at ");
  }, 90_000);

  test("a port in use: one plain line that says so and names PORT, exit 1", async () => {
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const run = await start({ PORT: String(busy.port) });
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split("\n");
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toStartWith(
        `orgit could not start: cannot listen on 127.0.0.1:${busy.port}`,
      );
      expect(lines[0]).toContain("set PORT");
    } finally {
      await busy.stop(true);
    }
  }, 90_000);

  test("without ADMIN_TOKEN the service warns that operator access is off and how to turn it on", async () => {
    const run = await start({ PORT: String(await freePort()) }, /operator access is off/);
    expect(run.stderr).toContain('"msg":"operator access is off"');
    expect(run.stderr).toContain("set ADMIN_TOKEN");
  }, 90_000);
});
