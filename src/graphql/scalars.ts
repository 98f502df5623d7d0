import { GraphQLScalarType, Kind } from "graphql";

const parseDate = (value: unknown): Date => {
  if (typeof value !== "string") throw new TypeError("DateTime must be an ISO 8601 string");
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    throw new TypeError(`DateTime must be an ISO 8601 timestamp, got "${value}"`);
  }
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
