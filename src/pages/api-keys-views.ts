import { SCOPES } from "../auth/permissions.ts";
import type { SessionMember } from "../auth/sessions.ts";
import type { ApiKeyStatus } from "../graphql/generated.ts";
import type { MyOrganization } from "../modules/settings/service.ts";
import { type Html, html } from "./html.ts";
import { layout } from "./layout.ts";

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  status: ApiKeyStatus;
  owner: { id: string; firstName: string; lastName: string };
}

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
  errors?: string[];
}

/** `2026-05-01 14:03 UTC` inside a <time> element; machine-readable and the same for everyone. */
const when = (iso: string | null, none: string) =>
  iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>` : none;

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

function keyRow(key: KeyView, org: MyOrganization, admin: boolean): Html {
  const status = key.status.toLowerCase();
  return html`<tr data-testid="api-key-row" data-key-name="${key.name}">
  <td data-label="Name"><strong>${key.name}</strong><br><code>${key.prefix}…</code></td>
  ${admin ? html`<td data-label="Owner" data-testid="key-owner">${key.owner.firstName} ${key.owner.lastName}</td>` : ""}
  <td data-label="Scopes">${key.scopes.map((s, i) => html`${i > 0 ? ", " : ""}<code>${s}</code>`)}</td>
  <td data-label="Created">${when(key.createdAt, "")}</td>
  <td data-label="Expires">${when(key.expiresAt, "Never")}</td>
  <td data-label="Last used">${when(key.lastUsedAt, "Never used")}</td>
  <td data-label="Status"><span class="status ${status}" data-testid="key-status">${status}</span></td>
  <td data-label="Actions">${
    key.status === "REVOKED"
      ? ""
      : html`<a href="/settings/api-keys/${key.id}/revoke${orgQuery(org)}" data-testid="key-revoke" aria-label="Revoke ${key.name}">Revoke</a>`
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
  const expiration = form.expiration ?? "DAYS_90";
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
  <fieldset>
    <legend>Scopes</legend>
    <div class="scopes">${SCOPES.map(
      (scope) =>
        html`<label><input type="checkbox" name="scopes" value="${scope}"${chosen.has(scope) ? html` checked` : ""} data-testid="key-scope-${scope}"> ${scope}</label>`,
    )}</div>
  </fieldset>
  <label for="key-expiration">Expiration</label>
  <select id="key-expiration" name="expiration" data-testid="key-expiration">
    ${EXPIRATIONS.map(([value, label]) => html`<option value="${value}"${value === expiration ? html` selected` : ""}>${label}</option>`)}
  </select>
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
}): Html {
  const { org, csrf, keys } = options;
  const admin = org.seat === "ADMIN";
  const main = html`<h1>API keys</h1>
${picker(options.orgs, org)}
${options.notice ? html`<p class="alert ok" role="status">${options.notice}</p>` : ""}
${options.created ? secretCard(options.created.name, options.created.secret) : ""}
<section class="card" aria-labelledby="keys-title">
  <h2 id="keys-title">${admin ? "Keys of every member" : "Your keys"} in ${org.name}</h2>
  ${
    keys.length === 0
      ? html`<p>No keys yet.</p>`
      : html`<table>
  <thead><tr><th scope="col">Name</th>${admin ? html`<th scope="col">Owner</th>` : ""}<th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
  <tbody>${keys.map((k) => keyRow(k, org, admin))}</tbody>
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
