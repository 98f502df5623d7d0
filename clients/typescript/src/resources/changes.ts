import { type Http, withQuery } from "../http.js";
import type { ChangePage, ChangeType } from "../models.js";

export interface ChangesQuery {
  /** the types to follow (default: every type the key may read) */
  types?: ChangeType[];
  /** the `next` of an earlier answer; absent: from the beginning of what is kept */
  since?: string;
  /** 1..1000 (default 100) */
  limit?: number;
}

/** `GET /api/v1/changes`: every change of tickets, alerts and equipment (incremental sync). */
export class ChangesResource {
  constructor(private readonly http: Http) {}

  /** One answer of the feed: `{ data, next, hasMore }`. */
  list(query: ChangesQuery = {}): Promise<ChangePage> {
    const { types, ...rest } = query;
    const path = withQuery("/api/v1/changes", { ...rest, types: types?.join(",") });
    return this.http.request<ChangePage>({ method: "GET", path });
  }

  /**
   * Every change ready now, page after page from `since`: apply each page's `data`, then store
   * its `next` (the token to start from next time); ends with the page where `hasMore` is
   * false. A stored token older than what the service keeps throws `GoneError` (410): start
   * again without `since`.
   *
   * ```ts
   * for await (const page of orgit.changes.sync(["tickets"], stored)) {
   *   for (const change of page.data) apply(change);
   *   stored = page.next;
   * }
   * ```
   */
  async *sync(
    types?: ChangeType[],
    since?: string,
    options: { limit?: number } = {},
  ): AsyncGenerator<ChangePage, void, undefined> {
    let token = since;
    for (;;) {
      const page = await this.list({ types, since: token, limit: options.limit ?? 1000 });
      yield page;
      token = page.next;
      if (!page.hasMore) return;
    }
  }
}
