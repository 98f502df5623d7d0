import { describe, expect, test } from "bun:test";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * What a web page on another site can do with /graphql (docs/security.md, "GraphQL from a
 * browser"): CORS answers only the configured origins, never with credentials, and GraphiQL
 * (outside production) draws from the per-IP bucket like any keyless request.
 */
describeEachDriver("graphql from a browser", (driver) => {
  describe("without CORS_ORIGINS", () => {
    const { app, make } = useTestApp(driver);

    test("a foreign Origin gets no CORS header, on the request and on its preflight", async () => {
      const { key } = await make.member();
      const answer = await send(app, "/graphql", {
        method: "POST",
        key,
        headers: { origin: "https://evil.example" },
        body: { query: "{ __typename }" },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
      expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
      const preflight = await send(app, "/graphql", {
        method: "OPTIONS",
        headers: {
          origin: "https://evil.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    });
  });

  describe("with CORS_ORIGINS", () => {
    const allowed = "https://tools.example.com";
    const { app, make } = useTestApp(driver, {
      env: { CORS_ORIGINS: `${allowed},http://localhost:5173` },
    });

    test("a listed origin is answered by name, without credentials; another is not", async () => {
      const { key } = await make.member();
      const ask = (origin: string) =>
        send(app, "/graphql", {
          method: "POST",
          key,
          headers: { origin },
          body: { query: "{ __typename }" },
        });
      const listed = await ask(allowed);
      expect(listed.headers.get("access-control-allow-origin")).toBe(allowed);
      expect(listed.headers.get("access-control-allow-credentials")).toBeNull();
      const other = await ask("https://evil.example");
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      const preflight = await send(app, "/graphql", {
        method: "OPTIONS",
        headers: {
          origin: allowed,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(allowed);
      expect(preflight.headers.get("access-control-allow-headers")).toBe(
        "authorization, content-type",
      );
      expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    });
  });

  describe("GraphiQL and the per-IP bucket", () => {
    const { app } = useTestApp(driver, {
      env: { RATE_LIMIT_IP_PER_MIN: "3", RATE_LIMIT_BURST_PER_SEC: "100" },
    });

    test("the 4th GraphiQL page in a minute from one address is a 429; another address still gets it", async () => {
      const page = (peer: string) =>
        send(app, "/graphql", { headers: { accept: "text/html" }, peer });
      for (let i = 0; i < 3; i++) expect((await page("198.51.100.50")).status).toBe(200);
      const refused = await page("198.51.100.50");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBeTruthy();
      expect((await page("198.51.100.51")).status).toBe(200);
    });
  });
});
