import { type IntegerOptions, type TLiteral, type TUnion, Type } from "@sinclair/typebox";
import { type TSchema, t } from "elysia";
import { PAGE_LIMIT } from "../db/paging.ts";

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
  after: t.Optional(
    t.String({
      description:
        'cursor of the previous page (from the Link header\'s rel="next"), instead of offset: ' +
        "a deep page costs what the first page costs",
    }),
  ),
};

/**
 * An integer in an answer. Elysia's `t.Integer` also accepts numeric strings (right for a query
 * string) and so documents itself as `string | integer`; an answer's integers are JSON integers,
 * and the OpenAPI document (and the clients' types generated from it) must say so.
 */
export const ResponseInt = (options?: IntegerOptions) => Type.Integer(options);

export const PaginationSchema = t.Object(
  {
    total: ResponseInt({ description: "total number of items matching the filters" }),
    limit: ResponseInt({ description: "page size applied" }),
    offset: ResponseInt({ description: "number of items skipped" }),
  },
  { title: "Pagination" },
);

/**
 * Interface A's pagination envelope around a list item schema (docs/api.md). It documents the
 * answer (OpenAPI) and Elysia still trims it to its fields, but it is not checked again on every
 * request (`noValidate`): checking a page of 50 items (formats by regular expression) cost about a
 * seventh of a tickets page's CPU. tests/contract/list-shapes.test.ts holds every list route's
 * answer to its envelope instead (docs/decisions.md §36).
 */
export const envelope = <T extends TSchema>(item: T, title: string) =>
  t.Object({ data: t.Array(item), pagination: PaginationSchema }, { title, noValidate: true });

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
