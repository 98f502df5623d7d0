import { expect, setDefaultTimeout, test } from "bun:test";
import { hashPassword, verifyPassword } from "../../src/auth/passwords.ts";

setDefaultTimeout(120_000);

test("a password hash is scrypt at OWASP's parameters, salted, and verifies only its password", async () => {
  const password = "correct horse battery staple";
  const [first, second] = await Promise.all([hashPassword(password), hashPassword(password)]);
  expect(first).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
  expect(first, "a fresh salt each time").not.toBe(second);
  expect(await verifyPassword(password, first)).toBe(true);
  expect(await verifyPassword(`${password} `, first)).toBe(false);
  expect(await verifyPassword(password, "md5$whatever")).toBe(false);
});

test("hashes queue beyond four at a time instead of failing", async () => {
  const hashes = await Promise.all(
    Array.from({ length: 6 }, (_, i) => hashPassword(`password number ${i}`)),
  );
  expect(new Set(hashes).size).toBe(6);
  expect(await verifyPassword("password number 5", hashes[5] as string)).toBe(true);
});
