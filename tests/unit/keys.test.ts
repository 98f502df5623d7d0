import { expect, test } from "bun:test";
import {
  displayPrefix,
  generateApiKey,
  isWellFormedApiKey,
  randomBase62,
  sha256Hex,
  timingSafeEqualStrings,
} from "../../src/auth/keys.ts";

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
