import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FormatRegistry } from "@sinclair/typebox";
import "../../src/app.ts";

const SRC = new URL("../../src/", import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * `@elysiajs/openapi`'s main entry replaces TypeBox's global format checks (uuid, date-time, …)
 * with Zod schemas built on every check. Every response is validated against its schema, so a
 * 50-ticket page paid for 150 Zod schemas: the service's CPU per tickets page went from about
 * 300 µs to 1,260 µs (bench:e2e). Only the side-effect-free `@elysiajs/openapi/openapi` entry may
 * be imported.
 */
test("src imports @elysiajs/openapi only through its side-effect-free entry", () => {
  const offenders = sourceFiles(SRC).filter((file) =>
    /from "@elysiajs\/openapi"/.test(readFileSync(file, "utf8")),
  );
  expect(offenders, `import "@elysiajs/openapi/openapi" instead in ${offenders}`).toEqual([]);
});

test("with the app loaded, TypeBox's uuid and date-time checks are Elysia's, not Zod's", () => {
  for (const format of ["uuid", "date-time"]) {
    const check = FormatRegistry.Get(format);
    expect(check, `${format} is registered`).toBeDefined();
    expect(String(check), `${format} is checked without building a Zod schema`).not.toContain(
      "string3",
    );
  }
  const uuid = FormatRegistry.Get("uuid") as (value: string) => boolean;
  expect(uuid("0b5f3a4e-6c0d-4a53-9f37-3b1f1c2d4e5f")).toBe(true);
  expect(uuid("not-a-uuid")).toBe(false);
});
