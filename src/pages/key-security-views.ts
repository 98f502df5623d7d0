import type { SessionMember } from "../auth/sessions.ts";
import type { MyOrganizationsQuery } from "../generated/graphql.ts";
import { type Html, html } from "./html.ts";
import type { KeyView } from "./key-view.ts";
import { layout } from "./layout.ts";

/**
 * The settings screen's parts for rotation, IP allowlists, the lifetime policy and expiry
 * (docs/settings.md): the cells, banner and forms the key list shows, and the pages of their
 * own. Kept apart from api-keys-views.ts, which only calls into here.
 */

type MyOrganization = MyOrganizationsQuery["myOrganizations"][number];

const DAY_MS = 86_400_000;
const WARN_WITHIN_MS = 7 * DAY_MS;

/** Grace choices offered on the rotation page, in seconds (GraphQL takes any 0..604800). */
export const GRACE_CHOICES = [
  [0, "None: the old secret stops now"],
  [3_600, "1 hour"],
  [86_400, "1 day"],
  [259_200, "3 days"],
  [604_800, "7 days"],
] as const;

const stamp = (iso: string) =>
  html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;

/** "3 min ago", "2 h ago", "4 days ago": how long since `iso`, at `now`. */
export function ago(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

const orgQuery = (org: MyOrganization) => `?org=${encodeURIComponent(org.id)}`;

/** Under a key's name: its allowlist, the old secret's grace and use, the policy flag. */
export function keySecurityNotes(key: KeyView, now: Date): Html {
  const ips = key.allowedIps ?? [];
  const allowlist =
    ips.length === 0
      ? ""
      : html`<br><small data-testid="key-allowlist">Only from ${ips.map((ip, i) => html`${i > 0 ? ", " : ""}<code>${ip}</code>`)}</small>`;
  const grace =
    key.status === "ROTATED" && key.graceEndsAt
      ? html`<br><small data-testid="key-grace">${
          new Date(key.graceEndsAt).getTime() > now.getTime()
            ? html`Old secret works until ${stamp(key.graceEndsAt)}`
            : html`Old secret refused since ${stamp(key.graceEndsAt)}`
        }; ${
          key.graceUsedAt
            ? html`<span data-testid="key-grace-use">old secret last used ${ago(key.graceUsedAt, now)}${key.graceUsedIp ? html` from <code>${key.graceUsedIp}</code>` : ""}</span>`
            : "old secret not used since the rotation"
        }.</small>`
      : "";
  const flag = key.exceedsLifetimePolicy
    ? html`<br><small class="flag" data-testid="key-exceeds-policy">Longer than the organization's maximum lifetime</small>`
    : "";
  return html`${allowlist}${grace}${flag}`;
}

/** The actions a live key offers beside Revoke. */
export function keySecurityActions(key: KeyView, org: MyOrganization): Html | "" {
  if (key.status !== "ACTIVE") return "";
  return html`<a href="/settings/api-keys/${key.id}/rotate${orgQuery(org)}" data-testid="key-rotate" aria-label="Rotate ${key.name}">Rotate</a>
  <a href="/settings/api-keys/${key.id}/allowlist${orgQuery(org)}" data-testid="key-allowlist-edit" aria-label="IP allowlist of ${key.name}">IP allowlist</a>`;
}

/** A banner naming the live keys that expire within 7 days. */
export function expiryBanner(keys: KeyView[], now: Date): Html | "" {
  const soon = keys.filter(
    (k) =>
      k.status === "ACTIVE" &&
      k.expiresAt !== null &&
      new Date(k.expiresAt).getTime() - now.getTime() <= WARN_WITHIN_MS,
  );
  if (soon.length === 0) return "";
  return html`<div class="alert warning" role="alert" data-testid="expiry-banner">
  <p><strong>${soon.length === 1 ? "A key expires" : `${soon.length} keys expire`} within 7 days:</strong>
  ${soon.map((k, i) => html`${i > 0 ? ", " : ""}“${k.name}” (${stamp(k.expiresAt as string)})`)}.
  Rotate ${soon.length === 1 ? "it" : "them"} or create a replacement before programs are refused.</p>
</div>`;
}

/** The organization's policy line above the create form; its editor link for an ADMIN seat. */
export function policyLine(org: MyOrganization): Html {
  const text =
    org.maxKeyLifetimeDays === null
      ? "No maximum key lifetime is set."
      : html`Keys live at most <strong data-testid="policy-days">${org.maxKeyLifetimeDays}</strong> days here.`;
  return html`<p class="hint" data-testid="policy-line">${text}${
    org.seat === "ADMIN"
      ? html` <a href="/settings/api-keys/policy${orgQuery(org)}" data-testid="policy-edit">Change the policy</a>`
      : ""
  }</p>`;
}

/** The create form's allowlist field: one address or CIDR per line. */
export function allowlistField(value: string): Html {
  return html`<label for="key-allowed-ips">IP allowlist (optional)</label>
  <textarea id="key-allowed-ips" name="allowedIps" rows="3" data-testid="key-allowed-ips"
    aria-describedby="key-allowed-ips-hint" spellcheck="false">${value}</textarea>
  <p class="hint" id="key-allowed-ips-hint">One IPv4/IPv6 address or CIDR network per line, at most 50. Empty: any address.</p>`;
}

/** Splits the allowlist textarea into entries: lines or commas, blanks dropped. */
export const allowlistEntries = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

interface PageBase {
  member: SessionMember;
  csrf: string;
  org: MyOrganization;
}

const errorList = (intro: string, errors: string[] | undefined) =>
  errors?.length
    ? html`<div class="alert error" role="alert"><p>${intro}</p><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
    : "";

export function rotateView(options: PageBase & { key: KeyView; errors?: string[] }): Html {
  const { key, org, csrf } = options;
  const main = html`<section class="card narrow">
  <h1>Rotate “${key.name}”?</h1>
  ${errorList("The key was not rotated:", options.errors)}
  <p>A new secret is made for key <code>${key.prefix}…</code> of ${key.owner.firstName} ${key.owner.lastName}
  in ${org.name}, with the same name, scopes, owner, IP allowlist and expiry. It is shown once.
  The old secret keeps working for the grace period you choose, so programs can switch over.</p>
  <form method="post" action="/settings/api-keys/${key.id}/rotate">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="org" value="${org.id}">
    <label for="grace">Old secret keeps working for</label>
    <select id="grace" name="gracePeriod" data-testid="rotate-grace">
      ${GRACE_CHOICES.map(([seconds, label]) => html`<option value="${String(seconds)}"${seconds === 86_400 ? html` selected` : ""}>${label}</option>`)}
    </select>
    <div class="actions">
      <button type="submit" class="danger" data-testid="key-rotate-confirm">Rotate key</button>
      <a class="button secondary" href="/settings/api-keys${orgQuery(org)}">Cancel</a>
    </div>
  </form>
</section>`;
  return layout({ title: `Rotate ${key.name}`, main, member: options.member, csrf });
}

export function allowlistView(
  options: PageBase & { key: KeyView; value?: string; errors?: string[] },
): Html {
  const { key, org, csrf } = options;
  const value = options.value ?? (key.allowedIps ?? []).join("\n");
  const main = html`<section class="card narrow">
  <h1>IP allowlist of “${key.name}”</h1>
  ${errorList("The allowlist was not changed:", options.errors)}
  <p>Requests with key <code>${key.prefix}…</code> from any other address are refused (403).
  Leave the list empty to accept any address.</p>
  <form method="post" action="/settings/api-keys/${key.id}/allowlist">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="org" value="${org.id}">
    ${allowlistField(value)}
    <div class="actions">
      <button type="submit" data-testid="allowlist-save">Save allowlist</button>
      <a class="button secondary" href="/settings/api-keys${orgQuery(org)}">Cancel</a>
    </div>
  </form>
</section>`;
  return layout({ title: `IP allowlist of ${key.name}`, main, member: options.member, csrf });
}

export function policyView(options: PageBase & { value?: string; errors?: string[] }): Html {
  const { org, csrf } = options;
  const value =
    options.value ?? (org.maxKeyLifetimeDays === null ? "" : String(org.maxKeyLifetimeDays));
  const main = html`<section class="card narrow">
  <h1>Maximum key lifetime in ${org.name}</h1>
  ${errorList("The policy was not changed:", options.errors)}
  <p>New and rotated keys may not live longer than this; “Never” and longer expirations are no
  longer offered. Existing longer keys keep working and are flagged in the list.</p>
  <form method="post" action="/settings/api-keys/policy">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="org" value="${org.id}">
    <label for="max-days">Maximum lifetime in days (empty: no maximum)</label>
    <input id="max-days" name="maxKeyLifetimeDays" type="number" min="1" max="3650" inputmode="numeric"
      value="${value}" data-testid="policy-days-input">
    <div class="actions">
      <button type="submit" data-testid="policy-save">Save policy</button>
      <a class="button secondary" href="/settings/api-keys${orgQuery(org)}">Cancel</a>
    </div>
  </form>
</section>`;
  return layout({ title: "Maximum key lifetime", main, member: options.member, csrf });
}

/** Under the rotation notice on the list: where the old secret stands. */
export const rotatedNotice = (name: string) =>
  `Key “${name}” rotated. Copy the new secret below; the old one works until its grace period ends.`;

/** After the allowlist or policy forms (key-security.ts) redirect back to the list. */
export const savedNotice = (query: Record<string, string | undefined>) =>
  query.allowlist === "saved"
    ? "IP allowlist saved. It applies from the next request."
    : query.policy === "saved"
      ? "Maximum key lifetime saved."
      : undefined;
