import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { OrgitApp } from "../../src/app.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { buildTestApp, factories, freshDatabase } from "../helpers/harness.ts";

/**
 * The API reference (/swagger) and GraphiQL (/graphql) in a real browser, with every request
 * that leaves loopback refused and recorded: both must render from what the service itself
 * serves, as on a machine with no internet.
 */

let app: OrgitApp;
let drop: () => Promise<void>;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  const db = await freshDatabase("pglite");
  drop = db.drop;
  app = await buildTestApp(db.database);
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
  });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
}, 120_000); // the first launch unpacks Chromium from the npm package

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop(true);
  await app?.stop();
  await drop?.();
}, 30_000);

/**
 * A page whose requests to anything but this service are aborted and listed in `external`,
 * opened as on a first visit.
 * One context serves every test: the Chromium of @sparticuz/chromium runs as a single process,
 * and closing a context can take the whole browser down with it.
 */
async function offlinePage(): Promise<{ page: Page; external: string[]; close(): Promise<void> }> {
  context ??= await browser.newContext();
  const page = await context.newPage();
  // GraphiQL keeps its editors, tabs and open panels in the context's localStorage: each test
  // starts from a first visit, whichever ran before it
  await page.addInitScript(() => window.localStorage.clear());
  const external: string[] = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`) || url.startsWith("data:") || url.startsWith("blob:"))
      return route.continue();
    external.push(url);
    return route.abort();
  });
  return { page, external, close: () => page.close() };
}

describe("docs in a browser, offline", () => {
  test("/swagger renders the reference from local assets and lists every route", async () => {
    const { page, external, close } = await offlinePage();
    try {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${base}/swagger`);
      await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
      const document = await (await fetch(`${base}/swagger/json`)).json();
      const routes = Object.values(document.paths as Record<string, object>).reduce(
        (n: number, methods) => n + Object.keys(methods).length,
        0,
      );
      expect(await page.locator(".opblock").count()).toBe(routes);
      const paths = await page.locator(".opblock-summary-path").allInnerTexts();
      for (const path of [
        "/api/v1/tickets",
        "/api/v1/equipments/bulk-create",
        "/api/webhooks/{id}",
      ])
        expect(paths.map((p) => p.replace(/\u200b/g, ""))).toContain(path);
      const ids = await page.locator(".opblock-summary-operation-id").allInnerTexts();
      expect(ids).toContain("listTickets");
      await page.screenshot({ path: `${SCREENSHOT_DIR}swagger.png`, fullPage: false });
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test("/swagger/ with a trailing slash renders the same reference", async () => {
    const { page, external, close } = await offlinePage();
    try {
      await page.goto(`${base}/swagger/`);
      await page.locator(".opblock").first().waitFor({ timeout: 20_000 });
      expect(await page.locator(".opblock").count()).toBeGreaterThan(20);
      expect(external).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test("GraphiQL renders offline, explains the Authorization header, and runs a query with a key", async () => {
    const member = await factories(app).member({ scopes: ["equipment:read"] });
    const { page, external, close } = await offlinePage();
    try {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${base}/graphql`);
      const container = page.locator(".graphiql-container").first();
      await container.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: `${SCREENSHOT_DIR}graphiql.png` });
      const text = (await container.textContent()) ?? "";
      expect(text).toContain("Authorization");
      expect(text).not.toContain("__TITLE__");

      // with the placeholder replaced by a real key, the default query answers
      const headers = page.locator(".graphiql-editor-tool .graphiql-editor").last();
      await headers.click();
      await page.keyboard.press("ControlOrMeta+A");
      // pasted, as a user would (typing would meet the editor's auto-closing quotes)
      await context?.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
      await page.evaluate(
        (text) => navigator.clipboard.writeText(text),
        JSON.stringify({ Authorization: `Bearer ${member.key}` }),
      );
      await page.keyboard.press("ControlOrMeta+V");
      await page.screenshot({ path: `${SCREENSHOT_DIR}graphiql-key.png` });
      await page.locator(".graphiql-execute-button").click();
      await page
        .locator(".graphiql-response", { hasText: member.organizationId })
        .waitFor({ timeout: 20_000 });
      await page.screenshot({ path: `${SCREENSHOT_DIR}graphiql-answered.png` });
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test("GraphiQL's first load has the schema, with no key and no Re-fetch: Docs list the queries", async () => {
    const { page, external, close } = await offlinePage();
    try {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const asked: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") asked.push(request.url());
      });
      await page.goto(`${base}/graphql`);
      const container = page.locator(".graphiql-container").first();
      await container.waitFor({ timeout: 30_000 });
      await page.getByRole("button", { name: /Show Documentation Explorer/i }).click();
      const docs = page.locator(".graphiql-doc-explorer");
      await docs.getByText("Query", { exact: true }).first().click();
      await docs.getByText("whoami", { exact: true }).first().waitFor({ timeout: 20_000 });
      await page.screenshot({ path: `${SCREENSHOT_DIR}graphiql-docs.png` });
      const text = (await container.textContent()) ?? "";
      expect(text, "the schema loaded as the page opened").not.toContain("Error fetching schema");
      expect(asked, "no introspection was sent without a key").toEqual([]);
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
