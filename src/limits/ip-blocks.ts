import { type BucketRule, refill } from "./token-bucket.ts";

interface Block {
  tokens: number;
  at: number;
  /** when the bucket has a token again */
  until: number;
}

/**
 * Addresses whose per-IP bucket just refused a request, remembered until the bucket has a
 * token again, so that a guesser keeps getting its 429 without costing a credential lookup
 * (a database query, and an entry pushing real keys out of the key cache). This is a local
 * shortcut only: the bucket itself (in process or in Redis) stays the authority, and a block
 * never outlives the time the bucket needs to refill one token.
 */
export class IpBlocks {
  private readonly blocks = new Map<string, Block>();

  constructor(
    private readonly rule: BucketRule,
    private readonly now: () => number,
    private readonly maxEntries = 50_000,
  ) {}

  /** The bucket of `ip` refused a request and holds `tokens` (< 1). */
  note(ip: string, tokens: number): void {
    const at = this.now();
    const until = at + ((1 - tokens) * this.rule.windowMs) / this.rule.limit;
    if (this.blocks.size >= this.maxEntries) this.sweep();
    if (this.blocks.size >= this.maxEntries) return; // a flood of addresses: buckets still hold
    this.blocks.set(ip, { tokens, at, until });
  }

  /** The tokens of a blocked address's bucket now; undefined when it is not blocked. */
  tokens(ip: string): number | undefined {
    const block = this.blocks.get(ip);
    if (!block) return undefined;
    const now = this.now();
    if (now >= block.until) {
      this.blocks.delete(ip);
      return undefined;
    }
    return refill(this.rule, block.tokens, block.at, now);
  }

  sweep(): void {
    const now = this.now();
    for (const [ip, block] of this.blocks) if (now >= block.until) this.blocks.delete(ip);
  }
}
