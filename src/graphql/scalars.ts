import { GraphQLScalarType, Kind } from "graphql";
import { INSTANT_FORMAT, parseInstant } from "../input-safety.ts";

// the same strict instant as REST (input-safety.ts): no rolled-over days, years 0001–9999
const parseDate = (value: unknown): Date => {
  const date = typeof value === "string" ? parseInstant(value) : undefined;
  if (!date) throw new TypeError(`DateTime: ${INSTANT_FORMAT}`);
  return date;
};

export const DateTime = new GraphQLScalarType<Date, string>({
  name: "DateTime",
  serialize(value) {
    const date = value instanceof Date ? value : new Date(value as string);
    return date.toISOString();
  },
  parseValue: parseDate,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new TypeError("DateTime must be a string");
    return parseDate(ast.value);
  },
});
