import { expect, setDefaultTimeout, test } from "bun:test";
import { hashPassword, verifyDecoy, verifyPassword } from "../../src/auth/passwords.ts";

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

// Known answers, computed once with Node's own crypto.scrypt (so they do not depend on this code)
const PASSWORD = "correct horse battery staple";
const SALT = Buffer.from("0123456789abcdef").toString("base64");
/** scrypt at OWASP's N = 2^17, r = 8, p = 1 */
const OWASP_KEY = "6FprYHTFsXknvwZ92YQBgBBStM5YQLYkqgAq+B0yKwM=";
/** the same at N = 1024, quick to check */
const SMALL_KEY = "7AnzIswxwEinpwz+ntydndYfVHPvOACmX9Vvo8hO1qM=";
/** N = 1024 with an empty salt */
const UNSALTED_KEY = "LuUGAWD7Ba2Mz6nnao7+iGXOMKSyl1FOqvqfx9KqNaM=";

test("a hash written elsewhere at OWASP's parameters verifies: the stored parameters are used", async () => {
  expect(await verifyPassword(PASSWORD, `scrypt$131072$8$1$${SALT}$${OWASP_KEY}`)).toBe(true);
  expect(await verifyPassword(PASSWORD, `scrypt$1024$8$1$${SALT}$${SMALL_KEY}`)).toBe(true);
  expect(
    await verifyPassword(PASSWORD, `scrypt$1024$8$1$${SALT}$${OWASP_KEY}`),
    "the parameters are part of the hash",
  ).toBe(false);
});

test("stored values that are not a salted scrypt hash never verify, even with the right key", async () => {
  expect(await verifyPassword(PASSWORD, `bcrypt$1024$8$1$${SALT}$${SMALL_KEY}`), "scheme").toBe(
    false,
  );
  expect(await verifyPassword(PASSWORD, `scrypt$1024$8$1$$${UNSALTED_KEY}`), "no salt").toBe(false);
  expect(await verifyPassword(PASSWORD, `scrypt$1024$8$1$${SALT}$`), "no hash").toBe(false);
  // a stored key of another length is a plain false, not an exception from timingSafeEqual
  expect(await verifyPassword(PASSWORD, `scrypt$1024$8$1$${SALT}$${SMALL_KEY.slice(0, 24)}`)).toBe(
    false,
  );
});

test("the decoy check for an unknown email answers false, every time", async () => {
  expect(await verifyDecoy(PASSWORD)).toBe(false);
  expect(await verifyDecoy("decoy password, never valid"), "not even its own password").toBe(false);
});
