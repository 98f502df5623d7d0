import { type TSchema, t } from "elysia";
import { MAX_OFFSET, PAGE_LIMIT } from "../modules/shared/page.ts";

/** `limit` / `offset` of every interface A list; out of range → 400 Validation failed. */
export const PageQuery = {
  limit: t.Optional(
    t.Integer({
      minimum: PAGE_LIMIT.min,
      maximum: PAGE_LIMIT.max,
      default: PAGE_LIMIT.default,
      description: `page size, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`,
    }),
  ),
  offset: t.Optional(
    t.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: "items to skip" }),
  ),
};

export const PaginationSchema = t.Object({
  total: t.Integer({ description: "total number of items matching the filters" }),
  limit: t.Integer({ description: "page size applied" }),
  offset: t.Integer({ description: "number of items skipped" }),
});

/** The seed's pagination envelope around a list item schema. */
export const envelope = <T extends TSchema>(item: T, title: string) =>
  t.Object({ data: t.Array(item), pagination: PaginationSchema }, { title });

/** A closed set of string values (query filters, enums), typed as their union. */
export const oneOf = <const V extends readonly [string, ...string[]]>(values: V, description?: string) =>
  t.UnionEnum(values, { description: description ?? `one of ${values.join(", ")}` });
