/**
 * RFC 8288 `Link` headers of list answers (docs/api.md, cursor pages): `next` (by cursor),
 * `prev` and `first` (by offset or page number), each URL the caller's own with its filters
 * and limit kept, on PUBLIC_BASE_URL's origin (and path prefix, if any).
 */
export interface ListPagination {
  nextCursor: string | null;
  limit: number;
  /** interface A: items before the page */
  offset?: number;
  /** interface B: the page number */
  page?: number;
}

/** The `Link` header value for one page of the list at `requestUrl`. */
export function pageLinks(publicBaseUrl: string, requestUrl: string, page: ListPagination) {
  const url = new URL(requestUrl);
  const base = publicBaseUrl.replace(/\/+$/, "");
  // the caller's query without the paging parameters, read once for every link: each link's own
  // parameter comes last, where `URLSearchParams.set` would put a deleted one
  const params = new URLSearchParams(url.search);
  for (const name of ["after", "offset", "page"]) params.delete(name);
  const kept = params.toString();
  const link = (rel: string, name?: string, value?: string) => {
    const own =
      name && value !== undefined ? new URLSearchParams({ [name]: value }).toString() : "";
    const query = kept && own ? `${kept}&${own}` : kept || own;
    return `<${base}${url.pathname}${query ? `?${query}` : ""}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.nextCursor) links.push(link("next", "after", page.nextCursor));
  if (page.page !== undefined) {
    if (page.page > 1) {
      links.push(link("prev", "page", page.page > 2 ? `${page.page - 1}` : undefined));
    }
  } else if ((page.offset ?? 0) > 0) {
    const previous = Math.max(0, (page.offset ?? 0) - page.limit);
    links.push(link("prev", "offset", previous > 0 ? `${previous}` : undefined));
  }
  links.push(link("first"));
  return links.join(", ");
}

/**
 * A list answer as the contract shows it: the pagination without the cursor (which travels in
 * the `Link` header, set here on `headers`), so the envelope stays byte for byte as docs/api.md shows it.
 */
export function listAnswer<P extends ListPagination, D>(
  publicBaseUrl: string,
  request: Request,
  headers: Record<string, unknown>,
  list: { data: D; pagination: P },
): { data: D; pagination: Omit<P, "nextCursor"> } {
  const { nextCursor: _, ...pagination } = list.pagination;
  headers.link = pageLinks(publicBaseUrl, request.url, list.pagination);
  return { data: list.data, pagination };
}
