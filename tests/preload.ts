import { setDefaultTimeout } from "bun:test";

/**
 * Loaded once before `bun test` runs any file (bunfig.toml `preload`): one line saying which
 * storage backends the suite runs against and which it leaves out, and why. PGlite always runs;
 * Postgres and Redis variants run only when their URL is set (as .ci/run does), and would
 * otherwise be left out without a word.
 */
const where = (url: string) => {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "default port"}`; // never the password
  } catch {
    return "an unparsable URL";
  }
};
const backend = (name: string, variable: string, also: string) => {
  const url = process.env[variable];
  return url
    ? `${name} runs (${variable} → ${where(url)})`
    : `${name} left out (${variable} unset; set it to also run ${also})`;
};

console.error(
  [
    "backends: PGlite runs (in memory)",
    backend("Postgres", "TEST_DATABASE_URL", "every suite on Postgres"),
    backend("Redis", "TEST_REDIS_URL", "the shared rate-limit bucket tests"),
  ].join("; "),
);

// bunfig.toml has no test timeout setting (a `timeout` key there is ignored), so Bun's 5 s
// default applied to every test and hook: too short for PGlite's start-up on a loaded machine.
// Bun 1.4.5 applies this call to the first test file of a run only (two files that each
// sleep 6 s: the second times out), so `npm test` and `test:pgbouncer` also pass
// `--timeout 30000`, which holds for every file; a bare `bun test a b` should too.
setDefaultTimeout(30_000);
