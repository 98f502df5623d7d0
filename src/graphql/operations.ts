import * as generated from "../generated/graphql.ts";
import { TypedDocumentString } from "../generated/graphql.ts";

/**
 * A REST route's GraphQL operation: a typed document generated from
 * src/graphql/operations/*.graphql by `npm run codegen` (docs/development.md). Its type carries
 * the operation's result and variables, both derived from the SDL.
 */
export type Operation<Result = unknown, Variables = unknown> = TypedDocumentString<
  Result,
  Variables
>;

export type ResultOf<O> = O extends Operation<infer Result, unknown> ? Result : never;

/** The variables argument of `run`: optional when the operation requires none. */
export type VariablesArg<Variables> =
  Record<string, never> extends Variables ? [variables?: Variables] : [variables: Variables];

/** A function that runs operations as one caller (see bridge.ts). */
export type RunOperation = <Result, Variables>(
  operation: Operation<Result, Variables>,
  ...variables: VariablesArg<Variables>
) => Promise<Result>;

/**
 * Every operation of generated.ts, each validated and compiled at start-up (executor.ts).
 * Fragment documents are left out: codegen inlines them in the operations that use them.
 */
export const operations: readonly Operation[] = Object.values(
  generated as Record<string, unknown>,
).filter(
  (value): value is Operation =>
    value instanceof TypedDocumentString && !value.__meta__?.fragmentName,
);
