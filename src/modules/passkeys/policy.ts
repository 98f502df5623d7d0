import { BUILT_IN_ROLES } from "../../auth/permissions.ts";
import type { Database } from "../../db/client.ts";
import { adminSeatRequiresPasskey, credentialsOf } from "./queries.ts";

/** What a correct password may open (docs/decisions.md §12). */
export type PasswordPolicy = "allow" | "passkey-required" | "enroll-only";

/** The built-in roles on an ADMIN seat (custom roles say their seat in the database). */
const ADMIN_ROLES = Object.entries(BUILT_IN_ROLES)
  .filter(([, role]) => role.seat === "ADMIN")
  .map(([name]) => name);

/**
 * What a correct password may open for a user: everything, unless they hold an ADMIN seat
 * where the organization requires a passkey; then nothing if they have a passkey, or only the
 * page that adds one if they have none yet. The settings feature's AccountService asks it.
 */
export const passwordPolicy =
  (database: Database) =>
  async (userId: string): Promise<PasswordPolicy> => {
    if (!(await adminSeatRequiresPasskey(database.db, userId, ADMIN_ROLES))) return "allow";
    const passkeys = await credentialsOf(database.db, userId);
    return passkeys.length > 0 ? "passkey-required" : "enroll-only";
  };
