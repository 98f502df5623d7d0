import { expect, setDefaultTimeout, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { passwordQueue } from "../../src/auth/passwords.ts";
import { signInFailures } from "../../src/db/schema/index.ts";
import { buildTestApp, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

// every checked password costs one OWASP scrypt hash (128 MiB, about a second here)
setDefaultTimeout(180_000);

/**
 * docs/decisions.md §10 and docs/security.md: at most 10 passwords checked per account and 30
 * per address within 15 minutes, however many attempts arrive at once. The attempt is reserved
 * (counted) before its password is checked, under a lock, so a parallel burst cannot read the
 * count before any of its attempts is written.
 */
describeEachDriver("sign-in under a parallel burst", (driver) => {
  const { app, db, make } = useTestApp(driver);

  async function loginForm() {
    const browser = pageClient(app);
    await browser.get("/login");
    const cookie = browser.jar.header();
    const csrf = browser.preSessionCsrf();
    return (target: OrgitApp, peer: string, email: string, password: string) =>
      send(target, "/login", {
        method: "POST",
        peer,
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
      });
  }

  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  test("120 parallel guesses for one account: exactly 10 checked (401), 110 refused with 429 and Retry-After, then the right password is refused too", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const post = await loginForm();
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        post(app, "192.0.2.10", user.email, `wrong guess ${i}`),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(count(statuses, 401), "passwords checked").toBe(10);
    expect(count(statuses, 429), "refused before any check").toBe(110);
    for (const r of responses.filter((r) => r.status === 429)) {
      const retryAfter = Number(r.headers.get("retry-after"));
      expect(
        retryAfter,
        "seconds until the oldest counted failure leaves the window",
      ).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(900);
    }
    const right = await post(app, "192.0.2.11", user.email, PASSWORD);
    expect(right.status, "the right password after the cap does not sign in").toBe(429);
    expect(right.headers.getSetCookie().some((c) => c.includes("orgit_session"))).toBe(false);
  });

  test("a member signing in from elsewhere during a 120-guess burst is not stuck behind it", async () => {
    const org = await make.organization();
    const target = await memberWithPassword(app, make, org.id);
    const member = await memberWithPassword(app, make, org.id);
    const post = await loginForm();
    // count the hashes that start: the member's sign-in must not wait behind more than the
    // burst's 10 reserved checks (about 30 hash times before the attempts were reserved). A
    // count, not a duration, so a loaded machine cannot fail it.
    const run = passwordQueue.run;
    let started = 0;
    passwordQueue.run = <T>(task: () => Promise<T>) =>
      run.call(passwordQueue, () => {
        started++;
        return task();
      }) as Promise<T>;
    try {
      const burst = Promise.all(
        Array.from({ length: 120 }, (_, i) => post(app, "192.0.2.15", target.email, `guess ${i}`)),
      );
      const signIn = await post(app, "198.51.100.15", member.email, PASSWORD);
      const hashesBeforeSignedIn = started;
      const statuses = (await burst).map((r) => r.status);
      expect(signIn.status).toBe(303);
      expect(count(statuses, 401), "the burst's checked guesses").toBe(10);
      expect(
        hashesBeforeSignedIn,
        "hashes run before the member was signed in",
      ).toBeLessThanOrEqual(11);
    } finally {
      passwordQueue.run = run;
    }
  });

  test("120 parallel guesses from one address over 12 accounts: exactly 30 checked, the rest 429", async () => {
    const post = await loginForm();
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        post(app, "192.0.2.20", `target${i % 12}@example.com`, `wrong guess ${i}`),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(count(statuses, 401), "passwords checked").toBe(30);
    expect(count(statuses, 429)).toBe(90);
  });

  if (driver === "postgres") {
    test("two instances sharing the database check 10 passwords in all for one account", async () => {
      const other = await buildTestApp(await db.openAnother());
      try {
        const org = await make.organization();
        const user = await memberWithPassword(app, make, org.id);
        const post = await loginForm();
        const responses = await Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            post(i % 2 ? other : app, "192.0.2.30", user.email, `wrong guess ${i}`),
          ),
        );
        const statuses = responses.map((r) => r.status);
        expect(count(statuses, 401), "passwords checked across both").toBe(10);
        expect(count(statuses, 429)).toBe(110);
      } finally {
        await other.stop();
      }
    });
  }

  if (process.env.TEST_REDIS_URL) {
    test("with rate-limit buckets in Redis the bounds are the same: 10 checked for one account", async () => {
      const { RedisClient } = await import("bun");
      const redis = new RedisClient(process.env.TEST_REDIS_URL);
      const other = await buildTestApp(await db.openAnother(), {
        redis,
        redisPrefix: `orgit:test:${crypto.randomUUID()}:`,
      });
      try {
        const org = await make.organization();
        const user = await memberWithPassword(app, make, org.id);
        const post = await loginForm();
        const responses = await Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            post(other, "192.0.2.35", user.email, `wrong guess ${i}`),
          ),
        );
        const statuses = responses.map((r) => r.status);
        expect(count(statuses, 401), "passwords checked").toBe(10);
        expect(count(statuses, 429)).toBe(110);
      } finally {
        await other.stop();
        redis.close();
      }
    });
  }

  test("a full hash queue answers 503 with Retry-After and counts nothing; once drained a sign-in is fast", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const post = await loginForm();
    let release = () => {};
    const gate = new Promise<void>((go) => {
      release = go;
    });
    const held: Promise<unknown>[] = [];
    for (let i = 0; i < passwordQueue.capacity; i++) held.push(passwordQueue.run(() => gate));
    const failuresBefore = (await app.services.database.db.select().from(signInFailures)).length;
    try {
      const busy = await post(app, "192.0.2.40", user.email, PASSWORD);
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("1");
      expect(await busy.text()).toContain("Too many sign-ins at once");
      expect(busy.headers.getSetCookie().some((c) => c.includes("orgit_session"))).toBe(false);
      const failuresAfter = (await app.services.database.db.select().from(signInFailures)).length;
      expect(failuresAfter, "the refused attempt is not counted against the account").toBe(
        failuresBefore,
      );
    } finally {
      release();
      await Promise.all(held);
    }
    const started = performance.now();
    const ok = await post(app, "192.0.2.40", user.email, PASSWORD);
    expect(ok.status).toBe(303);
    expect(performance.now() - started, "one hash, no queue left behind").toBeLessThan(10_000);
  });
});
