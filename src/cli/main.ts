import { runCli } from "./commands.ts";

// exitCode rather than process.exit(), so output piped to another program is flushed first
process.exitCode = await runCli(process.argv.slice(2), {
  fetch: (input, init) => fetch(input, init),
  env: process.env,
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
