import type { SoftAuthenticator, SoftCredential } from "./authenticator.ts";
import type { PageClient } from "./settings.ts";

/** What the in-process tests' app answers to: PUBLIC_BASE_URL, hence the RP ID and origin. */
export const ORIGIN = "http://localhost";

/**
 * Adds a passkey as the security page's script does: options, the authenticator's answer,
 * then the form. `tamper` changes the answer before it is sent.
 */
export async function addPasskey(
  browser: PageClient,
  authenticator: SoftAuthenticator,
  name: string,
  tamper: { origin?: string; challenge?: string; transports?: string[] } = {},
) {
  const optionsAnswer = await browser.post("/settings/security/passkeys/options", {
    _csrf: browser.sessionCsrf(),
  });
  if (optionsAnswer.status !== 200) return optionsAnswer;
  const options = await optionsAnswer.json();
  const response = authenticator.create(options, tamper);
  return browser.post("/settings/security/passkeys", {
    _csrf: browser.sessionCsrf(),
    name,
    response: JSON.stringify(response),
  });
}

/** Starts a password-less sign-in: the options the sign-in page's script asks for. */
export async function signInOptions(browser: PageClient) {
  await browser.get("/login");
  const answer = await browser.post("/login/passkey/options", { _csrf: browser.preSessionCsrf() });
  return { status: answer.status, options: answer.status === 200 ? await answer.json() : null };
}

/** Signs in with a passkey as the sign-in page's script does. */
export async function passkeySignIn(
  browser: PageClient,
  authenticator: SoftAuthenticator,
  pick: { credential?: SoftCredential; signCount?: number; origin?: string } = {},
) {
  const { options } = await signInOptions(browser);
  const response = authenticator.get(options, pick);
  return browser.post("/login/passkey", {
    _csrf: browser.preSessionCsrf(),
    response: JSON.stringify(response),
  });
}
