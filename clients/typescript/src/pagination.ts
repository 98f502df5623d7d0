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
