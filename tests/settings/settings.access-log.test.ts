import { expect, setDefaultTimeout, test } from "bun:test";
import { describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";
import { eventually } from "../helpers/wait.ts";

// every sign-in hashes a password at OWASP's scrypt cost (about a second here)
setDefaultTimeout(120_000);

describeEachDriver("access log of the HTML pages", (driver) => {
  const logs: Record<string, unknown>[] = [];
  const { app, make } = useTestApp(driver, { logs });

  /** the status in the access-log line of one answer, found by its request id */
  async function loggedStatus(response: Response) {
    const id = response.headers.get("x-request-id");
    const mine = (l: Record<string, unknown>) => l.msg === "request" && l.requestId === id;
    await eventually(() => logs.some(mine), "the access-log line");
    return logs.find(mine)?.status;
  }

  test("a refused CSRF token, a wrong password and a sign-in are logged as 403, 401 and 303", async () => {
    const org = await make.organization({ name: "Logged Org" });
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.get("/login");

    const forged = await browser.post("/login", {
      _csrf: "forged",
      email: user.email,
      password: PASSWORD,
    });
    expect(forged.status, "a forged CSRF token is refused").toBe(403);
    expect(await loggedStatus(forged), "the log says what the browser got").toBe(403);

    const wrong = await browser.post("/login", {
      _csrf: browser.preSessionCsrf(),
      email: user.email,
      password: "not the password at all",
    });
    expect(wrong.status).toBe(401);
    expect(await loggedStatus(wrong)).toBe(401);

    const signedIn = await browser.signIn(user.email);
    expect(signedIn.status).toBe(303);
    expect(await loggedStatus(signedIn)).toBe(303);

    const page = await browser.get("/settings/api-keys");
    expect(page.status).toBe(200);
    expect(await loggedStatus(page)).toBe(200);
  });
});
