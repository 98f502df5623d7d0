import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/service-process.ts";

/**
 * What a user of each client library downloads: the npm tarball and the Python wheel, built
 * from a copy of the client in a temporary folder (the work tree stays clean), with their
 * licence, types and README.
 */
const work = mkdtempSync(join(tmpdir(), "orgit-packages-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(command: string[], cwd: string) {
  const result = Bun.spawnSync(command, { cwd, env: process.env, stdout: "pipe", stderr: "pipe" });
  const output = `${result.stdout.toString()}${result.stderr.toString()}`;
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed:\n${output}`);
  return result.stdout.toString();
}

describe("client packages", () => {
  test("npm pack of @orgit/client holds the built code, its types, README and LICENSE, no sources", () => {
    const copy = join(work, "typescript");
    cpSync(join(ROOT, "clients/typescript"), copy, {
      recursive: true,
      filter: (path) => !/\/(node_modules|dist)(\/|$)/.test(path),
    });
    run([join(ROOT, "node_modules/.bin/tsc"), "-p", "tsconfig.json"], copy);
    const [packed] = JSON.parse(run(["npm", "pack", "--json", "--dry-run"], copy)) as {
      name: string;
      files: { path: string }[];
    }[];
    const files = (packed?.files ?? []).map((f) => f.path).sort();
    expect(packed?.name).toBe("@orgit/client");
    for (const wanted of [
      "LICENSE",
      "README.md",
      "package.json",
      "dist/index.js",
      "dist/index.d.ts",
    ]) {
      expect(files, `${wanted} in the tarball`).toContain(wanted);
    }
    expect(
      files.filter((f) => f.startsWith("src/") || f.startsWith("test/")),
      "no sources or tests",
    ).toEqual([]);
  }, 120_000);

  test("the Python wheel holds the package, py.typed and the licence, and declares MIT", () => {
    const copy = join(work, "python");
    cpSync(join(ROOT, "clients/python"), copy, {
      recursive: true,
      filter: (path) => !/\/(tests|build|dist|__pycache__|[^/]*\.egg-info)(\/|$)/.test(path),
    });
    // a PEP 517 build with the setuptools and wheel at hand (no index is reachable to fetch a
    // build environment): the machine's Debian Python has both (python3-setuptools, python3-wheel)
    const python = ["python3", "/usr/bin/python3"].find(
      (p) => Bun.spawnSync([p, "-c", "import setuptools, wheel"]).exitCode === 0,
    );
    expect(
      python,
      "a python3 with setuptools and wheel (apt-get install python3-wheel)",
    ).toBeString();
    run(
      [python as string, "-c", "import setuptools.build_meta as b; print(b.build_wheel('dist'))"],
      copy,
    );
    const wheel = readdirSync(join(copy, "dist")).find((f) => f.endsWith(".whl")) as string;
    expect(wheel).toMatch(/^orgit-0\.1\.0-py3-none-any\.whl$/);
    const list = run(
      [
        python as string,
        "-c",
        `import zipfile; print("\\n".join(zipfile.ZipFile("dist/${wheel}").namelist()))`,
      ],
      copy,
    ).split("\n");
    expect(list).toContain("orgit/__init__.py");
    expect(list).toContain("orgit/py.typed");
    expect(
      list.some((f) => /\.dist-info\/LICENSE$/.test(f)),
      `LICENSE in ${list.join(", ")}`,
    ).toBe(true);
    const metadata = run(
      [
        python as string,
        "-c",
        `import zipfile; z = zipfile.ZipFile("dist/${wheel}"); print(z.read([n for n in z.namelist() if n.endswith("METADATA")][0]).decode())`,
      ],
      copy,
    );
    expect(metadata).toContain("License: MIT");
    expect(metadata).toContain("Classifier: License :: OSI Approved :: MIT License");
  }, 120_000);
});
