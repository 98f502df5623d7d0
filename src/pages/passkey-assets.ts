import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Elysia } from "elysia";

/**
 * The passkey pages' scripts, served by the service itself (CSP `default-src 'self'`, no CDN):
 * `@simplewebauthn/browser`'s own bundle, read from the pinned package in node_modules, and the
 * few lines that wire it to the forms. Each URL carries a hash of its content, so browsers may
 * keep it a year: a new version is a new URL.
 */
const WEBAUTHN_BUNDLE = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve("@simplewebauthn/browser")),
    "../dist/bundle/index.umd.min.js",
  ),
  "utf8",
);

/**
 * A form with `data-passkey="<options URL>"` asks the server for options (sending the form's
 * fields, `_csrf` included), lets the browser run the ceremony, puts the answer in the form's
 * `response` field and submits it. Without WebAuthn the form says so and stays unsent.
 */
const PASSKEY_SCRIPT = `(function () {
  var lib = window.SimpleWebAuthnBrowser;
  var supported = !!lib && lib.browserSupportsWebAuthn();
  document.querySelectorAll("form[data-passkey]").forEach(function (form) {
    var status = form.querySelector("[data-passkey-status]");
    var button = form.querySelector("button[type=submit]");
    var say = function (text) { if (status) status.textContent = text; };
    if (!supported) {
      say("This browser cannot use passkeys.");
      if (button) button.disabled = true;
      return;
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (button) button.disabled = true;
      say("Follow your browser's instructions…");
      fetch(form.getAttribute("data-passkey"), {
        method: "POST",
        body: new URLSearchParams(new FormData(form)),
        credentials: "same-origin",
        headers: { accept: "application/json" },
      })
        .then(function (answer) {
          return answer.json().then(function (body) {
            if (!answer.ok) throw new Error(body.error || "The server refused to start.");
            return body;
          });
        })
        .then(function (options) {
          var start = form.getAttribute("data-ceremony") === "create" ? lib.startRegistration : lib.startAuthentication;
          return start({ optionsJSON: options });
        })
        .then(function (result) {
          form.querySelector("[name=response]").value = JSON.stringify(result);
          say("Checking…");
          form.submit();
        })
        .catch(function (error) {
          if (button) button.disabled = false;
          say(error && error.name === "NotAllowedError"
            ? "Cancelled, or the passkey prompt timed out. Try again."
            : (error && error.message) || "Something went wrong. Try again.");
        });
    });
  });
})();
`;

const hashed = (name: string, body: string) =>
  `/assets/${name}.${createHash("sha256").update(body).digest("hex").slice(0, 12)}.js`;

/** The script URLs a passkey page lists, the library first. */
export const PASSKEY_SCRIPTS = [
  hashed("webauthn", WEBAUTHN_BUNDLE),
  hashed("passkeys", PASSKEY_SCRIPT),
] as const;

const script = (body: string) => () =>
  new Response(body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    },
  });

export const passkeyAssetRoutes = () =>
  new Elysia({ name: "passkey-assets" })
    .get(PASSKEY_SCRIPTS[0], script(WEBAUTHN_BUNDLE), { detail: { hide: true } })
    .get(PASSKEY_SCRIPTS[1], script(PASSKEY_SCRIPT), { detail: { hide: true } });
