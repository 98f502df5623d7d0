import type { ApiKeyStatus } from "../generated/graphql.ts";

/** A key as the settings screen lists it (the MyApiKeys operation's fields). */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  status: ApiKeyStatus;
  owner: { id: string; firstName: string; lastName: string };
  /** rotation, allowlist and policy facts (key-security-views.ts) */
  allowedIps?: string[];
  graceEndsAt?: string | null;
  graceUsedAt?: string | null;
  graceUsedIp?: string | null;
  exceedsLifetimePolicy?: boolean;
}
