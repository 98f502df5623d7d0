/**
 * Server-side HTML with escaping by default: every value interpolated into `html\`…\`` is
 * escaped unless it is itself an `Html` (the output of another `html` call). A tagged template
 * keeps the pages in plain .ts files, with no JSX settings or runtime for either entry point.
 */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0] as string;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}

/** Headers of every HTML answer (docs/decisions.md §10), errors included. */
export const PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  // no framing (clickjacking), forms post only here, no <base> to redirect relative URLs
  "content-security-policy":
    "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  // invitation tokens live in URLs: never hand them to another site
  "referrer-policy": "same-origin",
};

export interface PageResponseInit {
  status?: number;
  cookies?: string[];
  location?: string;
}

export function pageResponse(body: Html | null, init: PageResponseInit = {}): Response {
  const headers = new Headers(PAGE_HEADERS);
  for (const cookie of init.cookies ?? []) headers.append("set-cookie", cookie);
  if (init.location) headers.set("location", init.location);
  const status = init.status ?? (init.location ? 303 : 200);
  return new Response(body ? `<!doctype html>\n${body.value}` : null, { status, headers });
}

/** Redirect after POST: 303, so a reload repeats the GET and never the form. */
export const seeOther = (location: string, cookies?: string[]) =>
  pageResponse(null, { location, cookies });
