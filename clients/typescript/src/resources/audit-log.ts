import { type Http, withQuery } from "../http.js";
import type { AuditEntry, AuditExportRange, AuditLogPage, AuditLogQuery } from "../models.js";

const iso = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

/**
 * `/api/v1/audit-log`: the organization's usage and audit trail (scope `audit:read`, an ADMIN
 * seat with `audit.view`). `list` answers one page, `listAll` follows `nextCursor`, `export`
 * streams NDJSON line by line without holding the whole range in memory.
 */
export class AuditLogResource {
  private readonly path = "/api/v1/audit-log";

  constructor(private readonly http: Http) {}

  /** One page, newest first; pass `after: page.nextCursor` for the next. */
  list(query: AuditLogQuery = {}): Promise<AuditLogPage> {
    return this.http.request<AuditLogPage>({ method: "GET", path: withQuery(this.path, query) });
  }

  /** Every entry matching the filters, newest first, page after page (`limit` 200 by default). */
  async *listAll(query: Omit<AuditLogQuery, "after"> = {}): AsyncGenerator<AuditEntry> {
    let after: string | undefined;
    do {
      const page = await this.list({ limit: 200, ...query, after });
      yield* page.data;
      after = page.nextCursor ?? undefined;
    } while (after);
  }

  /** Every entry of `[from, to)`, oldest first, read from the NDJSON stream as it arrives. */
  async *export(range: AuditExportRange): AsyncGenerator<AuditEntry> {
    const path = withQuery(`${this.path}/export`, { from: iso(range.from), to: iso(range.to) });
    const body = await this.http.open({ method: "GET", path });
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end = buffered.indexOf("\n");
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim()) yield JSON.parse(line) as AuditEntry;
        end = buffered.indexOf("\n");
      }
    }
    if (buffered.trim()) yield JSON.parse(buffered) as AuditEntry;
  }
}
