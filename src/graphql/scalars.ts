import { GraphQLScalarType, Kind } from "graphql";
import { INSTANT_FORMAT, parseInstant } from "../input-safety.ts";

// the same strict instant as REST (input-safety.ts): no rolled-over days, years 0001–9999
const parseDate = (value: unknown): Date => {
  const date = typeof value === "string" ? parseInstant(value) : undefined;
  if (!date) throw new TypeError(`DateTime: ${INSTANT_FORMAT}`);
  return date;
};

/** `toISOString`'s own form: such text is already what DateTime writes */
const ISO_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const DateTime = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    // the time columns pages read as text (db/paging.ts `isoInstant`): no Date made
    if (typeof value === "string" && ISO_TEXT.test(value)) return value;
    return new Date(value as string).toISOString();
  },
  parseValue: parseDate,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new TypeError("DateTime must be a string");
    return parseDate(ast.value);
  },
});
