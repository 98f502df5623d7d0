import { Elysia } from "elysia";
import { assertSafeInput } from "../input-safety.ts";

/**
 * Refuses, as 400 `Validation failed` naming the field, any body, query or path parameter text
 * that cannot be stored (NUL, unpaired surrogates; see input-safety.ts). It runs before every
 * handler, after authentication and schema validation, so a 401 or a schema problem still
 * comes first. `/graphql` is left to the GraphQL plugin, which answers in GraphQL's shape; the
 * matched `route` decides, so it is the route Elysia actually runs, whatever the URL looks like.
 */
export const inputGuard = () =>
  new Elysia({ name: "input-guard" }).onBeforeHandle(
    { as: "global" },
    ({ route, body, query, params }) => {
      if (route === "/graphql") return;
      // most reads carry no body and few parameters: nothing to walk, nothing allocated
      if (body === undefined && isEmpty(params) && isEmpty(query)) return;
      assertSafeInput(params, query, body);
    },
  );

/** An object without own enumerable keys (or none at all). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  for (const _ in value as object) return false;
  return true;
}
