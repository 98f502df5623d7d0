import { Elysia } from "elysia";
import { ApiError } from "../errors.ts";
import { MyApiKeyUsageDocument } from "../generated/graphql.ts";
import type { PageDeps } from "./deps.ts";
import { pageResponse, seeOther } from "./html.ts";
import { keyUsageView } from "./key-usage-views.ts";
import { messagePage, pageFailSafe } from "./layout.ts";
import { signedIn } from "./request.ts";

/**
 * GET /settings/api-keys/:id/usage: one key's last use, requests in 24 h and a 30-day chart,
 * for its owner or an ADMIN seat of its organization (the rule lives in AuditService).
 */
export const keyUsagePages = ({ services, operations }: PageDeps) => {
  const failSafe = pageFailSafe(services.logger);
  return new Elysia({ name: "settings-key-usage", detail: { hide: true } }).get(
    "/settings/api-keys/:id/usage",
    ({ request, params }) =>
      failSafe(request, async () => {
        const session = await signedIn(services, request);
        if (!session) return seeOther("/login");
        try {
          const run = operations.forMember({ userId: session.member.userId });
          const { myApiKeyUsage } = await run(MyApiKeyUsageDocument, { id: params.id });
          const body = keyUsageView({
            member: session.member,
            csrf: session.csrf,
            usage: myApiKeyUsage,
          });
          return pageResponse(body);
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== "NOT_FOUND") throw error;
          return messagePage(
            404,
            "API key not found",
            "This API key does not exist or is not yours to see.",
            {
              href: "/settings/api-keys",
              label: "Back to your API keys",
            },
          );
        }
      }),
  );
};
