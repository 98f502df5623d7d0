import type { SessionMember } from "../auth/sessions.ts";
import type { PasskeyView } from "./deps.ts";
import { type Html, html } from "./html.ts";
import { layout } from "./layout.ts";
import { PASSKEY_SCRIPTS } from "./passkey-assets.ts";

/** `2026-05-01 14:03 UTC` inside a <time> element, as on the API keys page. */
const when = (at: Date | null, none: string) => {
  if (!at) return none;
  const iso = at.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;
};

function passkeyRow(passkey: PasskeyView): Html {
  return html`<tr data-testid="passkey-row" data-passkey-name="${passkey.name}">
  <td data-label="Name"><strong>${passkey.name}</strong></td>
  <td data-label="Created">${when(passkey.createdAt, "")}</td>
  <td data-label="Last used" data-testid="passkey-last-used">${when(passkey.lastUsedAt, "Never used")}</td>
  <td data-label="Actions"><a href="/settings/security/passkeys/${passkey.id}/remove" data-testid="passkey-remove" aria-label="Remove ${passkey.name}">Remove</a></td>
</tr>`;
}

export function securityView(options: {
  member: SessionMember;
  csrf: string;
  passkeys: PasskeyView[];
  notice?: string;
  error?: string;
  name?: string;
  nameMax: number;
}): Html {
  const { member, csrf, passkeys } = options;
  const main = html`<h1>Security</h1>
${
  member.enrollOnly
    ? html`<p class="alert error" role="alert" data-testid="enroll-only">Your organization requires administrators to sign in with a passkey. Add one now: you will then sign in with it. Until then this is the only page you can use.</p>`
    : ""
}
${options.notice ? html`<p class="alert ok" role="status" data-testid="security-notice">${options.notice}</p>` : ""}
<section class="card" aria-labelledby="passkeys-title">
  <h2 id="passkeys-title">Your passkeys</h2>
  <p class="hint">A passkey signs you in with your device's screen lock or a security key, with no password. orgit keeps only its public key.</p>
  ${
    passkeys.length === 0
      ? html`<p data-testid="no-passkeys">No passkeys yet.</p>`
      : html`<table>
  <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="skip">Actions</span></th></tr></thead>
  <tbody>${passkeys.map(passkeyRow)}</tbody>
</table>`
  }
</section>
<section class="card" aria-labelledby="add-title">
  <h2 id="add-title">Add a passkey</h2>
  ${options.error ? html`<p class="alert error" role="alert" data-testid="passkey-error">${options.error}</p>` : ""}
  <form method="post" action="/settings/security/passkeys" data-passkey="/settings/security/passkeys/options" data-ceremony="create">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="response" value="">
    <label for="passkey-name">Name</label>
    <input id="passkey-name" name="name" type="text" required maxlength="${options.nameMax}" value="${options.name ?? ""}"
      aria-describedby="passkey-name-hint" data-testid="passkey-name">
    <p class="hint" id="passkey-name-hint">Which device or key it is, e.g. “Work laptop” or “YubiKey”.</p>
    <div class="actions"><button type="submit" data-testid="passkey-add">Add a passkey</button></div>
    <p class="hint" data-passkey-status role="status" aria-live="polite" data-testid="passkey-status"></p>
  </form>
</section>`;
  return layout({ title: "Security", main, member, csrf, scripts: PASSKEY_SCRIPTS });
}

export function removePasskeyView(options: {
  member: SessionMember;
  csrf: string;
  passkey: PasskeyView;
}): Html {
  const { passkey, csrf } = options;
  const main = html`<section class="card narrow">
  <h1>Remove “${passkey.name}”?</h1>
  <p>This passkey will no longer sign you in. The device may keep it; remove it there too.</p>
  <form method="post" action="/settings/security/passkeys/${passkey.id}/remove">
    <input type="hidden" name="_csrf" value="${csrf}">
    <div class="actions">
      <button type="submit" class="danger" data-testid="passkey-remove-confirm" autofocus>Remove passkey</button>
      <a class="button secondary" href="/settings/security">Cancel</a>
    </div>
  </form>
</section>`;
  return layout({ title: `Remove ${passkey.name}`, main, member: options.member, csrf });
}
