import type { SessionMember } from "../auth/sessions.ts";
import type { MyOrganizationsQuery } from "../generated/graphql.ts";
import { when } from "./dates.ts";
import { type Html, html } from "./html.ts";
import {
  allowlistField,
  expiryBanner,
  keySecurityActions,
  keySecurityNotes,
  policyLine,
} from "./key-security-views.ts";
import type { KeyView } from "./key-view.ts";
import { layout } from "./layout.ts";
import { scopePicker } from "./scope-picker.ts";

export type { KeyView };

export const EXPIRATIONS = [
  ["DAYS_30", "30 days"],
  ["DAYS_90", "90 days"],
  ["MONTHS_6", "6 months"],
  ["YEAR_1", "1 year"],
  ["NEVER", "Never"],
] as const;

export interface FormState {
  name?: string;
  scopes?: string[];
  expiration?: string;
  allowedIps?: string;
  errors?: string[];
}

/** One organization of the member, as the MyOrganizations operation answers it. */
type MyOrganization = MyOrganizationsQuery["myOrganizations"][number];

const orgQuery = (org: MyOrganization) => `?org=${encodeURIComponent(org.id)}`;

function picker(orgs: MyOrganization[], current: MyOrganization): Html | "" {
  if (orgs.length < 2) return "";
  return html`<form method="get" action="/settings/api-keys" class="picker card">
  <div><label for="org">Organization</label>
  <select id="org" name="org" data-testid="org-picker">
    ${orgs.map((o) => html`<option value="${o.id}"${o.id === current.id ? html` selected` : ""}>${o.name}</option>`)}
  </select></div>
  <button type="submit" class="secondary">Switch</button>
</form>`;
}

function secretCard(name: string, secret: string): Html {
  return html`<section class="card secret" aria-labelledby="new-key-title">
  <h2 id="new-key-title">Your new key “${name}”</h2>
  <p role="status"><strong>Copy the secret now. It will not be shown again</strong>: orgit keeps only a fingerprint of it.</p>
  <label for="new-key-secret">Secret</label>
  <input id="new-key-secret" type="text" readonly value="${secret}" data-testid="new-key-secret" autocomplete="off" spellcheck="false">
  <div class="actions"><button type="button" data-copy="new-key-secret" data-testid="copy-secret" hidden>Copy</button></div>
</section>`;
}

function keyRow(key: KeyView, org: MyOrganization, admin: boolean, now: Date): Html {
  const status = key.status.toLowerCase();
  return html`<tr data-testid="api-key-row" data-key-name="${key.name}">
  <td data-label="Key"><strong class="key-name">${key.name}</strong>
    <span class="key-meta"><code>${key.prefix}…</code> · created ${when(key.createdAt, "")}</span>${keySecurityNotes(key, now)}</td>
  ${admin ? html`<td data-label="Owner" data-testid="key-owner">${key.owner.firstName} ${key.owner.lastName}</td>` : ""}
  <td data-label="Scopes"><ul class="scope-list">${key.scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul></td>
  <td data-label="Expires">${when(key.expiresAt, "Never")}</td>
  <td data-label="Last used">${when(key.lastUsedAt, "Never used")}</td>
  <td data-label="Status"><span class="status ${status}" data-testid="key-status">${status}</span></td>
  <td data-label="Actions"><a href="/settings/api-keys/${key.id}/usage" data-testid="key-usage" aria-label="Usage of ${key.name}">Usage</a> ${
    key.status === "REVOKED"
      ? ""
      : html`${keySecurityActions(key, org)}
  <a href="/settings/api-keys/${key.id}/revoke${orgQuery(org)}" data-testid="key-revoke" aria-label="Revoke ${key.name}">Revoke</a>`
  }</td>
</tr>`;
}

function createForm(org: MyOrganization, csrf: string, form: FormState): Html {
  if (org.plan === "FREE") {
    return html`<p>API keys need the Pro plan; ${org.name} is on the Free plan.</p>`;
  }
  if (org.seat !== "ADMIN" && org.seat !== "TECHNICIAN") {
    return html`<p>API keys are for administrator and technician seats; your role here is ${org.role}.</p>`;
  }
  const chosen = new Set(form.scopes ?? []);
  // under a maximum lifetime, only the choices within it are offered (docs/settings.md)
  const offered = EXPIRATIONS.filter(([value]) => org.keyExpirationChoices.includes(value));
  const fallback = offered.some(([v]) => v === "DAYS_90") ? "DAYS_90" : offered[0]?.[0];
  const expiration = form.expiration ?? fallback;
  return html`${
    form.errors?.length
      ? html`<div class="alert error" role="alert"><p>The key was not created:</p><ul>${form.errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
      : ""
  }
<form method="post" action="/settings/api-keys">
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="org" value="${org.id}">
  <label for="key-name">Name</label>
  <input id="key-name" name="name" type="text" required maxlength="100" value="${form.name ?? ""}"
    aria-describedby="key-name-hint" data-testid="key-name">
  <p class="hint" id="key-name-hint">What the key is for, e.g. “Backup script on srv-01”.</p>
  ${scopePicker(chosen)}
  <label for="key-expiration">Expiration</label>
  <select id="key-expiration" name="expiration" data-testid="key-expiration" aria-describedby="key-expiration-hint">
    ${offered.map(([value, label]) => html`<option value="${value}"${value === expiration ? html` selected` : ""}>${label}</option>`)}
  </select>
  <p class="hint" id="key-expiration-hint">90 days unless you choose otherwise; a key that never expires is a standing risk.</p>
  ${policyLine(org)}
  ${allowlistField(form.allowedIps ?? "")}
  <div class="actions"><button type="submit" data-testid="key-create">Create key</button></div>
</form>`;
}

export function apiKeysView(options: {
  member: SessionMember;
  csrf: string;
  orgs: MyOrganization[];
  org: MyOrganization;
  keys: KeyView[];
  created?: { name: string; secret: string };
  notice?: string;
  form?: FormState;
  now: Date;
}): Html {
  const { org, csrf, keys, now } = options;
  const admin = org.seat === "ADMIN";
  const main = html`<h1>API keys</h1>
${picker(options.orgs, org)}
${options.notice ? html`<p class="alert ok" role="status">${options.notice}</p>` : ""}
${expiryBanner(keys, now)}
${options.created ? secretCard(options.created.name, options.created.secret) : ""}
<section class="card" aria-labelledby="keys-title">
  <h2 id="keys-title">${admin ? "All API keys" : "Your keys"} in ${org.name}</h2>
  ${admin ? html`<p class="hint">As an administrator you see and can revoke every member's keys.</p>` : ""}
  ${
    keys.length === 0
      ? html`<div class="empty" data-testid="keys-empty"><p><strong>No keys yet.</strong></p>
    <p>A key lets a script or an integration call the orgit API as you, with the permissions you
    choose. <a href="#create-title">Create your first key</a>.</p></div>`
      : html`<table class="keys">
  <thead><tr><th scope="col">Key</th>${admin ? html`<th scope="col">Owner</th>` : ""}<th scope="col">Scopes</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>${keys.map((k) => keyRow(k, org, admin, now))}</tbody>
</table>`
  }
</section>
<section class="card" aria-labelledby="create-title">
  <h2 id="create-title">Create a key</h2>
  ${createForm(org, csrf, options.form ?? {})}
</section>`;
  return layout({ title: "API keys", main, member: options.member, csrf });
}

export function revokeView(options: {
  member: SessionMember;
  csrf: string;
  org: MyOrganization;
  key: KeyView;
}): Html {
  const { key, org, csrf } = options;
  const main = html`<section class="card narrow">
  <h1>Revoke “${key.name}”?</h1>
  <p>Key <code>${key.prefix}…</code> of ${key.owner.firstName} ${key.owner.lastName} in ${org.name}.
  Programs using it are refused from their next request. This cannot be undone.</p>
  <form method="post" action="/settings/api-keys/${key.id}/revoke">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="org" value="${org.id}">
    <div class="actions">
      <button type="submit" class="danger" data-testid="key-revoke-confirm" autofocus>Revoke key</button>
      <a class="button secondary" href="/settings/api-keys${orgQuery(org)}">Cancel</a>
    </div>
  </form>
</section>`;
  return layout({ title: `Revoke ${key.name}`, main, member: options.member, csrf });
}
