import type { TLiteral, TUnion } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { PAGE_LIMIT } from "../modules/shared/page.ts";

/**
 * `limit` / `offset` of every interface A list. Only the type is checked here: the range is
 * checked by the domain (`pageWindow`), so REST and GraphQL answer the same `details`, and
 * because Elysia's number coercion loses the field name of a range error.
 */
export const PageQuery = {
  limit: t.Optional(
    t.Integer({
      error: "Must be an integer",
      description: `page size, ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default}); outside → 400`,
    }),
  ),
  offset: t.Optional(
    t.Integer({ error: "Must be an integer", description: "items to skip, ≥ 0 (default 0)" }),
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

/**
 * A closed set of string values (filters, enums) as a union of literals, with a readable error.
 * (Elysia's `t.UnionEnum` would fill an absent optional field with its first value.)
 */
export const oneOf = <const V extends readonly [string, ...string[]]>(
  values: V,
  description?: string,
) =>
  t.Union(values.map((value) => t.Literal(value)) as TSchema[], {
    error: `Must be one of: ${values.join(", ")}`,
    description: description ?? `one of ${values.join(", ")}`,
  }) as unknown as TUnion<[TLiteral<V[number]>]>;
