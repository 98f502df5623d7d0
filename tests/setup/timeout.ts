import { setDefaultTimeout } from "bun:test";

/**
 * Per-test timeout for every `bun test` run, however started (npm test, a single file, the
 * mutation runner): this Bun ignores bunfig.toml's `[test] timeout` and would give each test
 * 5 s, too little for PGlite start-up on a loaded CI machine. Note: this call also wins over
 * `bun test --timeout N` (checked with Bun 1.4.5); change the value here.
 */
setDefaultTimeout(30_000);
