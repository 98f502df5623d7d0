import { Elysia } from "elysia";
import { assertSafeInput } from "../input-safety.ts";
import { pathOf } from "./request-context.ts";

/**
 * Refuses, as 400 `Validation failed` naming the field, any body, query or path parameter text
 * that cannot be stored (NUL, unpaired surrogates; see input-safety.ts). It runs before every
 * handler, after authentication and schema validation, so a 401 or a schema problem still
 * comes first. `/graphql` is left to the GraphQL plugin, which answers in GraphQL's shape.
 */
export const inputGuard = () =>
  new Elysia({ name: "input-guard" }).onBeforeHandle(
    { as: "global" },
    ({ request, body, query, params }) => {
      if (pathOf(request.url) === "/graphql") return;
      assertSafeInput(params, query, body);
    },
  );
