import type { SessionMember } from "../auth/sessions.ts";
import type { MyApiKeyUsageQuery } from "../generated/graphql.ts";
import { type Html, html } from "./html.ts";
import { layout } from "./layout.ts";

export type KeyUsage = MyApiKeyUsageQuery["myApiKeyUsage"];

const WIDTH = 600;
const HEIGHT = 140;
const TOP = 16;
const BOTTOM = 20;
const n = (value: number) => new Intl.NumberFormat("en").format(value);

/**
 * The 30-day daily count as an inline SVG drawn here, on the server: no script, no framework,
 * nothing from another origin (CSP default-src 'self'). Screen readers get the title and
 * description, and the numbers in the visually hidden table that follows.
 */
export function dailyChart(daily: KeyUsage["daily"]): Html {
  const max = Math.max(1, ...daily.map((d) => d.count));
  const total = daily.reduce((sum, d) => sum + d.count, 0);
  const slot = WIDTH / daily.length;
  const plot = HEIGHT - TOP - BOTTOM;
  const first = daily[0]?.day ?? "";
  const last = daily.at(-1)?.day ?? "";
  const bars = daily.map((d, i) => {
    const h = d.count === 0 ? 0 : Math.max(2, Math.round((d.count / max) * plot));
    const x = (i * slot + 1).toFixed(1);
    return html`<rect x="${x}" y="${TOP + plot - h}" width="${(slot - 2).toFixed(1)}" height="${h}" fill="currentColor"><title>${d.day}: ${n(d.count)} requests</title></rect>`;
  });
  return html`<svg class="usage-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="img" aria-labelledby="usage-chart-title usage-chart-desc" data-testid="usage-chart">
  <title id="usage-chart-title">Requests per day, ${first} to ${last}</title>
  <desc id="usage-chart-desc">${n(total)} requests over 30 days; the busiest day had ${n(max === 1 && total === 0 ? 0 : max)}. The numbers are in the table below.</desc>
  <line x1="0" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}" stroke="currentColor" stroke-width="1"/>
  ${bars}
  <text x="0" y="${HEIGHT - 4}" font-size="12" fill="currentColor">${first}</text>
  <text x="${WIDTH}" y="${HEIGHT - 4}" font-size="12" text-anchor="end" fill="currentColor">${last}</text>
  <text x="0" y="12" font-size="12" fill="currentColor">${n(total === 0 ? 0 : max)} max</text>
</svg>
<table class="sr-only" data-testid="usage-table">
  <caption>Requests per day (UTC)</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Requests</th></tr></thead>
  <tbody>${daily.map((d) => html`<tr><th scope="row">${d.day}</th><td>${n(d.count)}</td></tr>`)}</tbody>
</table>`;
}

/** `2026-05-01 14:03 UTC` inside a <time> element. */
const when = (iso: string | null) =>
  iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>` : "Never";

export function keyUsageView(options: {
  member: SessionMember;
  csrf: string;
  usage: KeyUsage;
}): Html {
  const { usage, csrf } = options;
  const back = `/settings/api-keys?org=${encodeURIComponent(usage.organizationId)}`;
  const main = html`<h1>Usage of “${usage.name}”</h1>
<section class="card" aria-labelledby="usage-title">
  <h2 id="usage-title">Recent use</h2>
  <dl class="usage">
    <dt>Last used</dt><dd data-testid="usage-last-used">${when(usage.lastUsedAt)}</dd>
    <dt>From</dt><dd data-testid="usage-last-ip">${usage.lastUsedIp ?? "—"}</dd>
    <dt>Requests in the last 24 hours</dt><dd data-testid="usage-24h">${n(usage.requestsLast24h)}</dd>
  </dl>
  <h2>Last 30 days</h2>
  ${dailyChart(usage.daily)}
  <p><a href="${back}">Back to your API keys</a></p>
</section>`;
  return layout({ title: `Usage of ${usage.name}`, main, member: options.member, csrf });
}
