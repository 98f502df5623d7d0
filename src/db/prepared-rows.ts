import {
  Column,
  type DriverValueDecoder,
  is,
  noopDecoder,
  type Query,
  type SQL,
} from "drizzle-orm";
import type { Executor } from "./client.ts";

type Decoder = DriverValueDecoder<unknown, unknown>;

/** A flat selection, as `db.select({ … })` takes it: columns and `sql` values (`mapWith`). */
type Fields = Record<string, Column | SQL>;

/**
 * Drizzle's columns whose driver value is the value (text, uuid, enums…), and `sql` values
 * without `mapWith` (their text as it came): nothing to call.
 */
const asStored = (decoder: Decoder) =>
  decoder === noopDecoder ||
  (is(decoder, Column) && decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue);

/**
 * The row mapper of a flat selection: each value through its column's own decoder (the one
 * Drizzle's `mapResultRow` calls), in the selection's order, nulls kept. Made once per
 * statement: Drizzle's generic mapper walks every column's path, entity checks and `reduce`
 * again for each row, about 12–19 µs of a 50-row page against 5 (docs/performance.md, "Drizzle's row mapping").
 */
export function rowMapper<T>(fields: Fields): (rows: unknown[][]) => T[] {
  const keys = Object.keys(fields);
  // an `sql` value's decoder is the one `mapWith` set (Drizzle keeps it on the SQL object)
  const decoders = Object.values(fields).map((field) =>
    is(field, Column) ? field : (field as unknown as { decoder: Decoder }).decoder,
  );
  const stored = decoders.map(asStored);
  const mapRow = (row: unknown[]) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = row[i];
      out[keys[i] as string] =
        value === null || stored[i] ? value : (decoders[i] as Decoder).mapFromDriverValue(value);
    }
    return out as T;
  };
  return (rows) => rows.map(mapRow);
}

/** A prepared select of a flat selection, its rows mapped by `rowMapper`. */
export interface PreparedRows<T> {
  execute(values: Record<string, unknown>): Promise<T[]>;
}

/**
 * `select.prepare(name)` with the rows mapped by `rowMapper(fields)`: the same statement (the
 * query builder's own SQL and placeholders), on either driver. `fields` must be the object
 * the select was built from (`db.select(fields)`), so that the values come in its order.
 */
export function preparedRows<T>(
  db: Executor,
  select: { toSQL(): Query },
  fields: Fields,
  name: string,
): PreparedRows<T> {
  const map = rowMapper<T>(fields);
  return db._.session.prepareQuery<{ execute: T[]; all: unknown; values: unknown }>(
    select.toSQL(),
    undefined,
    name,
    true,
    map,
  );
}
