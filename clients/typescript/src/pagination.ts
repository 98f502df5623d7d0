import type { OffsetPagination, PagePagination } from "./models.js";

/** Interface A's largest page (`limit` 1..200). */
export const MAX_OFFSET_LIMIT = 200;
/** Interface B's largest page (`limit` 1..100). */
export const MAX_PAGE_LIMIT = 100;

/**
 * Every item of an interface A list (`{ data, pagination: { total, limit, offset } }`), fetched
 * lazily page after page: `offset` grows by the page size until a page is short or `offset`
 * reaches `total`. Rows inserted meanwhile can shift offset pages, so an id already yielded in
 * this iteration is skipped.
 */
export async function* paginateOffset<T>(
  fetchPage: (
    limit: number,
    offset: number,
  ) => Promise<{ data: T[]; pagination: OffsetPagination }>,
  idOf: (item: T) => string,
  limit: number = MAX_OFFSET_LIMIT,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  for (let offset = 0; ; ) {
    const page = await fetchPage(limit, offset);
    for (const item of page.data) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      yield item;
    }
    offset += page.data.length;
    if (page.data.length < limit || offset >= page.pagination.total) return;
  }
}

/**
 * Every item of an interface B list (`{ data, pagination: { page, limit, total } }`), fetched
 * lazily: `page` 1, 2, … until a page is short or the pages cover `total`.
 */
export async function* paginatePages<T>(
  fetchPage: (page: number, limit: number) => Promise<{ data: T[]; pagination: PagePagination }>,
  idOf: (item: T) => string,
  limit: number = MAX_PAGE_LIMIT,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page, limit);
    for (const item of answer.data) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      yield item;
    }
    if (answer.data.length < limit || page * limit >= answer.pagination.total) return;
  }
}

export const byId = (item: { id: string }) => item.id;

/**
 * The path and query of a `Link` header's `rel="next"` URL, or undefined on the last page. The
 * service writes its links on its PUBLIC_BASE_URL; the client sends them to its own base URL.
 */
export function nextLink(headers: Headers): string | undefined {
  for (const part of (headers.get("link") ?? "").split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="next"$/.exec(part.trim());
    if (match) {
      const url = new URL(match[1] as string);
      return url.pathname + url.search;
    }
  }
  return undefined;
}

/**
 * Every item of a list by its cursors: the first page from `path`, then each `rel="next"` until
 * there is none. A deep page costs what the first one costs, and nothing is skipped or repeated
 * when rows are inserted ahead of the walk (docs/api.md, cursor pages).
 */
export async function* followCursors<T>(
  fetchPage: (path: string) => Promise<{ body: { data: T[] }; meta: { headers: Headers } }>,
  path: string,
): AsyncGenerator<T, void, undefined> {
  for (let next: string | undefined = path; next !== undefined; ) {
    const { body, meta } = await fetchPage(next);
    yield* body.data;
    next = nextLink(meta.headers);
  }
}
