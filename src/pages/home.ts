import { Elysia } from "elysia";
import { html, pageResponse } from "./html.ts";
import { layout } from "./layout.ts";

/**
 * The service's front door: what it is and where to go next (`GET /`), and its icon, so a
 * browser pointed at the bare address finds a page instead of a 404.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1b1f24"/><rect x="7" y="8" width="18" height="12" rx="2" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M12 25h8M16 20v5" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/><circle cx="23" cy="9" r="4" fill="#4caf50"/></svg>`;

const ICON_HEADERS = {
  "content-type": "image/svg+xml",
  "cache-control": "public, max-age=86400",
};

function homePage(graphiql: boolean) {
  const main = html`<section class="card home">
  <h1>orgit</h1>
  <p>Organization IT management over HTTP: equipment, organizational units, alerts, support
  tickets, users, groups and agent releases; projects with signed outgoing webhooks; and the
  same domain over GraphQL. Every call takes an API key: <code>Authorization: Bearer orgit_…</code>.</p>
  <ul class="links">
    <li><a href="/swagger" data-testid="home-swagger">API reference</a>
      <span class="hint">every route, status, body and header; the OpenAPI 3.1 document is
      <a href="/swagger/json">/swagger/json</a></span></li>
    ${
      graphiql
        ? html`<li><a href="/graphql" data-testid="home-graphql">GraphQL</a>
      <span class="hint">GraphiQL: put your key in its Headers tab as
      <code>{"Authorization": "Bearer orgit_…"}</code></span></li>`
        : html`<li><code>POST /graphql</code>
      <span class="hint">the GraphQL endpoint, for internal tools</span></li>`
    }
    <li><a href="/login" data-testid="home-login">Sign in</a>
      <span class="hint">manage your API keys</span></li>
    <li><a href="/livez">/livez</a> and <a href="/readyz">/readyz</a>
      <span class="hint">health probes for load balancers</span></li>
  </ul>
  <p class="hint">Guides (limits, webhooks, clients, operations) are in the <code>docs/</code>
  folder that ships with the service.</p>
</section>`;
  return pageResponse(layout({ title: "Organization IT management API", main }));
}

export const homePages = (options: { graphiql: boolean }) =>
  new Elysia({ name: "home-pages" })
    .get("/", () => homePage(options.graphiql), { detail: { hide: true } })
    .get("/favicon.svg", () => new Response(FAVICON_SVG, { headers: ICON_HEADERS }), {
      detail: { hide: true },
    })
    // browsers ask for /favicon.ico by themselves; they render an SVG sent with its own type
    .get("/favicon.ico", () => new Response(FAVICON_SVG, { headers: ICON_HEADERS }), {
      detail: { hide: true },
    });
