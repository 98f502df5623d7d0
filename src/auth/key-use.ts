import type { Db } from "../db/client.ts";
import { recordGraceUse, recordLastUse } from "../db/queries/api-keys.ts";
import type { Logger } from "../logger.ts";

/**
 * Key use noted in memory on the request path and written in batches: every key's last-use
 * time, and for an old secret still in its grace after a rotation, also the client address
 * (shown on the settings page, so its owner can find who has not switched yet).
 */
export class KeyUse {
  private lastUsed = new Map<string, Date>();
  private graceUse = new Map<string, { at: Date; ip: string | null }>();

  constructor(
    private readonly db: () => Db,
    private readonly logger: Logger,
  ) {}

  note(keyId: string, at: Date, grace: { ip: string | undefined } | undefined): void {
    this.lastUsed.set(keyId, at);
    if (grace) this.graceUse.set(keyId, { at, ip: grace.ip ?? null });
  }

  async flush(): Promise<void> {
    const last = [...this.lastUsed];
    const grace = [...this.graceUse];
    this.lastUsed = new Map();
    this.graceUse = new Map();
    try {
      if (last.length > 0) await recordLastUse(this.db(), last);
      if (grace.length > 0) await recordGraceUse(this.db(), grace);
    } catch (error) {
      this.logger.warn("could not record API key last use", { error: String(error) });
    }
  }
}
