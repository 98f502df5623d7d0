import { expect, test } from "bun:test";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

describeEachDriver("the front page and the icon", (driver) => {
  const { app } = useTestApp(driver);

  test("GET / says what the service is and links to the reference, GraphQL, sign-in and probes", async () => {
    const response = await send(app, "/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    const page = await response.text();
    expect(page).toContain("<h1>orgit</h1>");
    for (const href of ["/swagger", "/swagger/json", "/graphql", "/login", "/livez", "/readyz"]) {
      expect(page, `a link to ${href}`).toContain(`href="${href}"`);
    }
    expect(page, "the icon is linked").toContain('rel="icon" href="/favicon.svg"');
  });

  test("/favicon.ico and /favicon.svg answer the icon, cached for a day", async () => {
    for (const path of ["/favicon.ico", "/favicon.svg"]) {
      const response = await send(app, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
      expect(await response.text()).toStartWith("<svg ");
    }
  });
});

describeEachDriver("the front page in production", (driver) => {
  const { app } = useTestApp(driver, {
    env: { NODE_ENV: "production", REQUIRE_HTTPS: "false", WEBHOOK_SECRET_KEY: "k".repeat(32) },
  });

  test("without GraphiQL it names the endpoint instead of linking to a page that is not there", async () => {
    const page = await (await send(app, "/")).text();
    expect(page).not.toContain('href="/graphql"');
    expect(page).toContain("<code>POST /graphql</code>");
  });
});
