import type { OperationBridge } from "../graphql/bridge.ts";
import type { Services } from "../services.ts";

/** What the pages take: a few services, and the bridge that runs operations as the member. */
export interface PageDeps {
  services: Pick<
    Services,
    "config" | "logger" | "sessions" | "accounts" | "passkeys" | "now" | "limits"
  >;
  operations: OperationBridge;
}

/** A member's passkey as the security page lists it (the passkeys service's answer). */
export type PasskeyView = Awaited<ReturnType<PageDeps["services"]["passkeys"]["list"]>>[number];
