import { expect, test } from "bun:test";
import { crc32 } from "node:zlib";
import {
  displayPrefix,
  generateApiKey,
  isWellFormedApiKey,
  randomBase62,
  sha256Hex,
  timingSafeEqualStrings,
} from "../../src/auth/keys.ts";
import {
  BUILT_IN_ROLES,
  builtInRole,
  isPermission,
  isScope,
  PERMISSIONS,
  SCOPES,
} from "../../src/auth/permissions.ts";

test("generated keys are orgit_ + 40 base62 characters with a valid checksum", () => {
  const keys = new Set(Array.from({ length: 500 }, generateApiKey));
  expect(keys.size).toBe(500);
  for (const key of keys) {
    expect(key).toMatch(/^orgit_[0-9A-Za-z]{40}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  }
});

test("any single-character change breaks the checksum", () => {
  const key = generateApiKey();
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let caught = 0;
  let tried = 0;
  for (let i = 6; i < key.length; i++) {
    for (const c of alphabet.slice(0, 8)) {
      if (c === key[i]) continue;
      tried++;
      if (!isWellFormedApiKey(key.slice(0, i) + c + key.slice(i + 1))) caught++;
    }
  }
  expect(caught).toBe(tried);
});

test("wrong prefix, length or characters are not well-formed", () => {
  const key = generateApiKey();
  for (const bad of [
    "",
    "orgit_",
    key.slice(0, -1),
    `${key}0`,
    key.replace("orgit_", "ORGIT_"),
    `${key.slice(0, -1)}!`,
  ]) {
    expect(isWellFormedApiKey(bad)).toBe(false);
  }
});

test("base62 randomness covers the whole alphabet", () => {
  const seen = new Set(randomBase62(5000));
  expect(seen.size).toBe(62);
});

test("sha256Hex matches the known digest, and comparison is by value", () => {
  expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  expect(timingSafeEqualStrings("token-a", "token-a")).toBe(true);
  expect(timingSafeEqualStrings("token-a", "token-b")).toBe(false);
  expect(timingSafeEqualStrings("short", "much-longer-token")).toBe(false);
});

test("the display prefix shows 6 characters after orgit_", () => {
  expect(displayPrefix("orgit_abcdefghij")).toBe("orgit_abcdef");
});

/**
 * The checksum against an independent CRC-32, the bias of the base62 sampling, and the exact
 * scope, permission and role tables (src/auth/permissions.ts).
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
    "audit.view",
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
    "audit:read",
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
