import { expect, test } from "bun:test";
import fc from "fast-check";
import { type ListPagination, pageLinks } from "../../src/http/links.ts";

/**
 * The `Link` header as it was written before the caller's query was read once per answer:
 * each link built from a fresh copy of the query. `pageLinks` must write the same text.
 */
function oneCopyPerLink(publicBaseUrl: string, requestUrl: string, page: ListPagination) {
  const url = new URL(requestUrl);
  const base = publicBaseUrl.replace(/\/+$/, "");
  const link = (rel: string, set: Record<string, string | undefined>) => {
    const params = new URLSearchParams(url.search);
    for (const name of ["after", "offset", "page"]) params.delete(name);
    for (const [name, value] of Object.entries(set))
      if (value !== undefined) params.set(name, value);
    const query = params.toString();
    return `<${base}${url.pathname}${query ? `?${query}` : ""}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.nextCursor) links.push(link("next", { after: page.nextCursor }));
  if (page.page !== undefined) {
    if (page.page > 1)
      links.push(link("prev", { page: page.page > 2 ? `${page.page - 1}` : undefined }));
  } else if ((page.offset ?? 0) > 0) {
    const previous = Math.max(0, (page.offset ?? 0) - page.limit);
    links.push(link("prev", { offset: previous > 0 ? `${previous}` : undefined }));
  }
  links.push(link("first", {}));
  return links.join(", ");
}

test("a page's links keep the caller's filters and put their own parameter last", () => {
  const header = pageLinks(
    "https://api.example.com/",
    "http://127.0.0.1/api/v1/tickets?status=open&offset=20&limit=10&after=x&priority=high",
    { nextCursor: "bDEuMzAuMTc", limit: 10, offset: 20 },
  );
  expect(header).toBe(
    "<https://api.example.com/api/v1/tickets?status=open&limit=10&priority=high&after=bDEuMzAuMTc>; " +
      'rel="next", ' +
      '<https://api.example.com/api/v1/tickets?status=open&limit=10&priority=high&offset=10>; rel="prev", ' +
      '<https://api.example.com/api/v1/tickets?status=open&limit=10&priority=high>; rel="first"',
  );
  expect(
    pageLinks("https://a.example", "http://h/api/projects?page=2", {
      nextCursor: null,
      limit: 10,
      page: 2,
    }),
  ).toBe(
    '<https://a.example/api/projects>; rel="prev", <https://a.example/api/projects>; rel="first"',
  );
});

test("the same text as one copy of the query per link, for any query, cursor and page", () => {
  const text = fc.string({
    unit: fc.constantFrom("a", "Z", "0", " ", "&", "=", "+", "%", "é", "/", "?", "#", "~", "'"),
  });
  const pair = fc.tuple(
    fc.constantFrom("status", "after", "offset", "page", "limit", "q", "a b"),
    text,
  );
  fc.assert(
    fc.property(
      fc.array(pair, { maxLength: 6 }),
      fc.option(text, { nil: null }),
      fc.nat({ max: 300 }),
      fc.integer({ min: 1, max: 100 }),
      fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
      fc.constantFrom(
        "https://api.example.com",
        "https://api.example.com/base/",
        "http://[::1]:8080",
      ),
      (query, cursor, offset, limit, pageNumber, publicBaseUrl) => {
        const search = new URLSearchParams(query).toString();
        const requestUrl = `http://127.0.0.1:3000/api/v1/tickets${search ? `?${search}` : ""}`;
        const page: ListPagination =
          pageNumber === undefined
            ? { nextCursor: cursor, limit, offset }
            : { nextCursor: cursor, limit, page: pageNumber };
        expect(pageLinks(publicBaseUrl, requestUrl, page)).toBe(
          oneCopyPerLink(publicBaseUrl, requestUrl, page),
        );
      },
    ),
    { numRuns: 2_000 },
  );
});
