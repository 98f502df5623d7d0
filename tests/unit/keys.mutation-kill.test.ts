import { expect, test } from "bun:test";
import { crc32 } from "node:zlib";
import { generateApiKey, isWellFormedApiKey, randomBase62 } from "../../src/auth/keys.ts";
import {
  BUILT_IN_ROLES,
  builtInRole,
  isPermission,
  isScope,
  PERMISSIONS,
  SCOPES,
} from "../../src/auth/permissions.ts";

/**
 * Kills the StrykerJS mutants of src/auth/keys.ts and src/auth/permissions.ts that the
 * behavioural suites leave alive (issue 20): the checksum against an independent CRC-32, the
 * bias of the base62 sampling, and the exact scope, permission and role tables.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The 6-character base62 checksum, computed with zlib's CRC-32 instead of the module's table. */
const referenceChecksum = (body: string) => {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
};

test("the checksum is the CRC-32 of the 34-character body, in 6 base62 digits", () => {
  for (let i = 0; i < 200; i++) {
    const key = generateApiKey();
    expect(key.startsWith("orgit_")).toBe(true);
    expect(key).toHaveLength(46);
    expect(key.slice(40)).toBe(referenceChecksum(key.slice(6, 40)));
  }
  const body = "0123456789ABCDEFGHIJKLMNOPQRSTUVWX";
  expect(isWellFormedApiKey(`orgit_${body}${referenceChecksum(body)}`)).toBe(true);
  expect(isWellFormedApiKey(`orgit_${body}${referenceChecksum(`${body}Y`)}`)).toBe(false);
});

test("a body with a non-base62 character is refused even when its checksum matches", () => {
  for (const odd of ["_", "-", " ", "é", "+", "/"]) {
    const body = `${odd}123456789ABCDEFGHIJKLMNOPQRSTUVWX`;
    expect(isWellFormedApiKey(`orgit_${body}${referenceChecksum(body)}`)).toBe(false);
  }
  const body = "0123456789ABCDEFGHIJKLMNOPQRSTUVWX";
  const sum = referenceChecksum(body);
  expect(isWellFormedApiKey(`Xorgit_${body}${sum}`)).toBe(false);
  expect(isWellFormedApiKey(`orgit_${body}${sum}\n`)).toBe(false);
  expect(isWellFormedApiKey(`orgit-${body}${sum}`)).toBe(false);
});

test("randomBase62 has exactly the asked length and no bias towards the first characters", () => {
  for (const length of [0, 1, 7, 34, 100]) expect(randomBase62(length)).toHaveLength(length);
  expect(randomBase62(34)).toMatch(/^[0-9A-Za-z]{34}$/);
  // 248 = 4 × 62 byte values are used; taking 248..255 too would make "0"–"7" 25 % likelier
  const sample = randomBase62(400_000);
  const counts = new Map<string, number>();
  for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
  const expected = sample.length / 62; // 6,452; one standard deviation ≈ 80
  for (const c of ALPHABET) {
    expect(counts.get(c) ?? 0).toBeGreaterThan(expected - 800);
    expect(counts.get(c) ?? 0).toBeLessThan(expected + 800);
  }
});

test("the permission and scope tables are exactly the documented ones", () => {
  expect([...PERMISSIONS]).toEqual([
    "equipment.view_all",
    "equipment.manage",
    "tickets.view_all",
    "tickets.manage",
    "alerts.view",
    "alerts.manage",
    "users.view",
    "users.manage",
    "projects.view",
    "projects.manage",
    "webhooks.manage",
  ]);
  expect([...SCOPES]).toEqual([
    "equipment:read",
    "equipment:write",
    "tickets:read",
    "tickets:write",
    "users:read",
    "alerts:read",
    "alerts:write",
    "dashboards:read",
    "automations:read",
    "automations:write",
    "projects:read",
    "projects:write",
    "webhooks:read",
    "webhooks:write",
  ]);
  for (const p of PERMISSIONS) expect(isPermission(p)).toBe(true);
  for (const s of SCOPES) expect(isScope(s)).toBe(true);
  expect(isPermission("tickets:read")).toBe(false);
  expect(isScope("tickets.manage")).toBe(false);
});

test("built-in roles: admin has every permission, technician the documented nine", () => {
  expect(builtInRole("admin")).toEqual({ seat: "ADMIN", permissions: PERMISSIONS });
  expect(builtInRole("technician")).toEqual({
    seat: "TECHNICIAN",
    permissions: [
      "equipment.view_all",
      "equipment.manage",
      "tickets.view_all",
      "tickets.manage",
      "alerts.view",
      "alerts.manage",
      "users.view",
      "projects.view",
      "projects.manage",
    ],
  });
  expect(Object.keys(BUILT_IN_ROLES)).toEqual(["admin", "technician"]);
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "Admin", ""]) {
    expect(builtInRole(name)).toBeUndefined();
  }
});
