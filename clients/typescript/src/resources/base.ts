import { type Http, withQuery } from "../http.js";
import type { OffsetPagination, PagePagination } from "../models.js";
import { followCursors, paginateOffset, paginatePages } from "../pagination.js";

type OffsetList = { data: unknown[]; pagination: OffsetPagination };
type PageList = { data: unknown[]; pagination: PagePagination };

/** An interface A list: `list` answers one page, `listAll` iterates every item lazily. */
export class OffsetListResource<
  L extends OffsetList,
  Q extends { limit?: number; offset?: number },
> {
  constructor(
    protected readonly http: Http,
    private readonly path: string,
    private readonly idOf: (item: L["data"][number]) => string,
  ) {}

  /** One page: `limit` 1..200 (default 50), `offset` ≥ 0, plus the route's filters. */
  list(query: Q = {} as Q): Promise<L> {
    return this.http.request<L>({ method: "GET", path: withQuery(this.path, query) });
  }

  /** Every item matching the filters, page after page; `limit` is the page size (default 200). */
  listAll(query: Omit<Q, "offset"> = {} as Omit<Q, "offset">): AsyncGenerator<L["data"][number]> {
    return paginateOffset(
      (limit, offset) => this.list({ ...query, limit, offset } as Q),
      this.idOf,
      query.limit,
    );
  }

  /**
   * Every item matching the filters by cursor pages (the `Link` header's `rel="next"`): deep
   * pages cost what the first one costs; `limit` is the page size (default 200).
   */
  paginate(
    query: Omit<Q, "offset" | "after"> = {} as Omit<Q, "offset" | "after">,
  ): AsyncGenerator<L["data"][number]> {
    const first = withQuery(this.path, { ...query, limit: query.limit ?? 200 });
    return followCursors((path) => this.http.exchange<L>({ method: "GET", path }), first);
  }
}

/** An interface B list: `list` answers one page, `listAll` iterates every item lazily. */
export class PageListResource<L extends PageList, Q extends { page?: number; limit?: number }> {
  constructor(
    protected readonly http: Http,
    protected readonly path: string,
  ) {}

  /** One page: `page` ≥ 1 (default 1), `limit` 1..100 (default 10). */
  list(query: Q = {} as Q): Promise<L> {
    return this.http.request<L>({ method: "GET", path: withQuery(this.path, query) });
  }

  /** Every item, page after page; `limit` is the page size (default 100). */
  listAll(query: Omit<Q, "page"> = {} as Omit<Q, "page">): AsyncGenerator<L["data"][number]> {
    return paginatePages(
      (page, limit) => this.list({ ...query, page, limit } as Q),
      (item) => (item as { id: string }).id,
      query.limit,
    );
  }

  /** Every item by cursor pages (`rel="next"`); `limit` is the page size (default 100). */
  paginate(
    query: Omit<Q, "page" | "after"> = {} as Omit<Q, "page" | "after">,
  ): AsyncGenerator<L["data"][number]> {
    const first = withQuery(this.path, { ...query, limit: query.limit ?? 100 });
    return followCursors((path) => this.http.exchange<L>({ method: "GET", path }), first);
  }
}

export const segment = (value: string) => encodeURIComponent(value);
