/** A WAL position (`16/B374D848`) as one comparable number. */
export function parseLsn(text: string): bigint {
  const [high = "0", low = "0"] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

const UNKNOWN = (1n << 64n) - 1n;
/** a bound on the number of callers remembered; the oldest go first (they have been replayed) */
const MAX_ENTRIES = 100_000;

/**
 * The primary's WAL position after each caller's last write (per API key or signed-in person):
 * a replica that has not replayed it must not serve that caller. An entry goes once every
 * replica has replayed it; one whose position could not be read (`unknown`) sends the caller to
 * the primary until `unknownForMs` passed, by when any replica still in use has it.
 */
export class WritePositions {
  private readonly entries = new Map<string, { lsn: bigint; at: number }>();

  constructor(
    private readonly unknownForMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  set(who: string, lsn: bigint): void {
    const known = this.entries.get(who);
    if (known && known.lsn >= lsn) return;
    this.entries.delete(who); // re-inserted last: the Map's order is the writes' order
    this.entries.set(who, { lsn, at: this.now() });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  unknown(who: string): void {
    this.set(who, UNKNOWN);
  }

  /** the position a replica must have replayed to serve `who`; undefined: any replica */
  get(who: string | undefined): bigint | undefined {
    if (who === undefined) return undefined;
    const entry = this.entries.get(who);
    if (!entry) return undefined;
    if (entry.lsn === UNKNOWN && this.now() - entry.at > this.unknownForMs) {
      this.entries.delete(who);
      return undefined;
    }
    return entry.lsn;
  }

  /** forgets the positions every replica has replayed */
  prune(replayedByAll: bigint): void {
    for (const [who, entry] of this.entries) {
      if (entry.lsn <= replayedByAll) this.entries.delete(who);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * How far behind the primary a replica that replayed up to `replayed` is, in milliseconds, from
 * the primary's positions sampled over time (oldest first). Replay timestamps would mislead: on
 * an idle primary the last replayed transaction is old while the replica is fully caught up.
 * Caught up with the newest sample: 0. Otherwise the age of the newest sample it has reached
 * (an upper bound, within one probe interval); none reached: null (behind all we know).
 */
export function lagFromSamples(
  samples: readonly { at: number; lsn: bigint }[],
  replayed: bigint,
  now: number,
): number | null {
  const newest = samples.at(-1);
  if (!newest || replayed >= newest.lsn) return 0;
  for (let i = samples.length - 2; i >= 0; i--) {
    const sample = samples[i] as { at: number; lsn: bigint };
    if (sample.lsn <= replayed) return Math.max(0, now - sample.at);
  }
  return null;
}
