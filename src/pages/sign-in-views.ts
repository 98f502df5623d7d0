import { PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";
import { type Html, html } from "./html.ts";
import { layout } from "./layout.ts";
import { PASSKEY_SCRIPTS } from "./passkey-assets.ts";

const alert = (kind: "error" | "ok", text: string | undefined) =>
  text
    ? html`<p class="alert ${kind}" role="${kind === "error" ? "alert" : "status"}">${text}</p>`
    : "";

export function loginView(options: {
  csrf: string;
  email?: string;
  error?: string;
  notice?: string;
}): Html {
  const main = html`<section class="card narrow">
  <h1>Sign in</h1>
  ${alert("error", options.error)}${alert("ok", options.notice)}
  <form method="post" action="/login">
    <input type="hidden" name="_csrf" value="${options.csrf}">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required${options.email ? "" : html` autofocus`}
      value="${options.email ?? ""}" data-testid="login-email">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required${options.email ? html` autofocus` : ""}
      data-testid="login-password">
    <div class="actions"><button type="submit" data-testid="login-submit">Sign in</button></div>
  </form>
  <h2>Or with a passkey</h2>
  <form method="post" action="/login/passkey" data-passkey="/login/passkey/options" data-ceremony="get">
    <input type="hidden" name="_csrf" value="${options.csrf}">
    <input type="hidden" name="response" value="">
    <p class="hint">No email needed: your device shows the passkeys it holds for this site.</p>
    <div class="actions"><button type="submit" class="secondary" data-testid="passkey-sign-in">Sign in with a passkey</button></div>
    <p class="hint" data-passkey-status role="status" aria-live="polite" data-testid="passkey-status"></p>
  </form>
  <p class="hint">No password yet? Ask your administrator for an invitation link.</p>
</section>`;
  return layout({ title: "Sign in", main, scripts: PASSKEY_SCRIPTS });
}

export function inviteView(options: {
  csrf: string;
  token: string;
  email: string;
  firstName: string;
  error?: string;
}): Html {
  const main = html`<section class="card narrow">
  <h1>Welcome, ${options.firstName}</h1>
  <p>Choose the password you will use to sign in to orgit.</p>
  ${alert("error", options.error)}
  <form method="post" action="/invite/${options.token}">
    <input type="hidden" name="_csrf" value="${options.csrf}">
    <label for="email">Email</label>
    <input id="email" type="email" autocomplete="username" value="${options.email}" readonly>
    <label for="password">New password</label>
    <input id="password" name="password" type="password" autocomplete="new-password" required
      minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="password-hint" autofocus
      data-testid="invite-password">
    <p class="hint" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters. A passphrase of a few words is easy to remember.</p>
    <label for="password-confirm">Repeat the password</label>
    <input id="password-confirm" name="passwordConfirm" type="password" autocomplete="new-password"
      required data-testid="invite-password-confirm">
    <div class="actions"><button type="submit" data-testid="invite-submit">Set password and sign in</button></div>
  </form>
</section>`;
  return layout({ title: "Choose a password", main });
}
