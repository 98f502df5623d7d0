import type { OrgitApp } from "../../src/app.ts";
import { sessionCsrfToken } from "../../src/auth/sessions.ts";
import type { Factories } from "./harness.ts";
import { send } from "./harness.ts";

export const PASSWORD = "correct horse battery staple";

/** A user with a password who is `role` in `organizationId`. */
export async function memberWithPassword(
  app: OrgitApp,
  make: Factories,
  organizationId: string,
  role = "technician",
  names: { firstName?: string; lastName?: string } = {},
) {
  const user = await make.user(names);
  await app.services.operator.addMember({ organizationId, userId: user.id, role });
  await app.services.accounts.setPassword(user.id, PASSWORD);
  return user;
}

/** Cookies a browser would keep: name → value. */
export class CookieJar {
  readonly values = new Map<string, string>();

  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = (pair as string).indexOf("=");
      const name = (pair as string).slice(0, eq);
      const value = (pair as string).slice(eq + 1);
      if (/Max-Age=0/i.test(line)) this.values.delete(name);
      else this.values.set(name, value);
    }
    return response;
  }

  header() {
    return [...this.values].map(([n, v]) => `${n}=${v}`).join("; ");
  }
}

/** A browser-like client of the pages: form posts, cookies, no redirects followed. */
/** A browser on the settings screen; `peer` is its address (127.0.0.1 by default). */
export function pageClient(app: OrgitApp, peer?: string) {
  const jar = new CookieJar();
  return {
    jar,
    async get(path: string) {
      return jar.take(await send(app, path, { peer, headers: { cookie: jar.header() } }));
    },
    async post(
      path: string,
      form: Record<string, string | string[]>,
      headers: Record<string, string> = {},
    ) {
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) {
        for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
      }
      return jar.take(
        await send(app, path, {
          method: "POST",
          peer,
          headers: {
            cookie: jar.header(),
            "content-type": "application/x-www-form-urlencoded",
            ...headers,
          },
          body: body.toString(),
        }),
      );
    },
    /** the CSRF token of the login and invitation forms (after a GET of one of them) */
    preSessionCsrf() {
      return jar.values.get("orgit_csrf") ?? "";
    },
    /** the CSRF token of a signed-in browser */
    sessionCsrf() {
      return sessionCsrfToken(jar.values.get("orgit_session") ?? "");
    },
    async signIn(email: string, password = PASSWORD) {
      await this.get("/login");
      return this.post("/login", { _csrf: this.preSessionCsrf(), email, password });
    },
  };
}

export type PageClient = ReturnType<typeof pageClient>;
