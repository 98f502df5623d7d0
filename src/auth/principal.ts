import type { Permission, Plan, Scope, Seat } from "./permissions.ts";

/** The session principal of the settings screen: a signed-in person, no organization yet. */
export interface Member {
  userId: string;
}

/** Who is calling: the organization, the key's owner with their role, and the key itself. */
export interface Principal {
  organization: {
    id: string;
    name: string;
    plan: Plan;
    dailyQuota: number | null;
    unlimitedQuota: boolean;
  };
  user: { id: string; role: string };
  seat: Seat;
  permissions: ReadonlySet<Permission>;
  apiKey: { id: string; name: string; scopes: readonly Scope[]; expiresAt: Date | null };
}
