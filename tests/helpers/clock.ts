/** A clock that only moves when told to, for buckets and quota windows without sleeping. */
export function manualClock(start = Math.floor(Date.now() / 60_000) * 60_000 + 1_000) {
  let at = start;
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
  };
}
