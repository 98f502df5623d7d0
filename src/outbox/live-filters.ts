import type { LiveEvent } from "./live.ts";

export interface LiveArgs {
  /** only this record's events */
  id?: string | null;
  /** only these event types */
  types?: readonly string[] | null;
  /** only records this predicate admits (the caller's visibility rule) */
  visible?: (record: LiveEvent["record"]) => boolean;
}

/** The predicate a subscription's events pass: its record, its types, what the caller may see. */
export const liveFilter =
  ({ id, types, visible }: LiveArgs) =>
  (event: LiveEvent) =>
    (id == null || event.record.id === id) &&
    (types == null || types.includes(event.type)) &&
    (visible === undefined || visible(event.record));
