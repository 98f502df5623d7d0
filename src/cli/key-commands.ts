/**
 * Operator commands for API key rotation, IP allowlists and the organization's maximum key
 * lifetime (docs/operator.md). Same table shape as commands.ts, which merges these in.
 */
import { type Command, int, list, record, usageError } from "./io.ts";

const KEY =
  "{ id organizationId userId name prefix scopes allowedIps expiresAt revokedAt createdAt }";

export const KEY_COMMANDS: Record<string, Command> = {
  "rotate-key": {
    usage: "--id ID [--grace SECONDS]",
    document: `mutation ($id: ID!, $grace: Seconds) { rotateApiKey(id: $id, gracePeriod: $grace) { apiKey ${KEY} secret } }`,
    title: "API key rotated",
    // absent: the API's default grace (one day); 0 stops the old secret at once
    variables: (f) => ({ id: f.id, grace: int(f.grace, "grace") }),
    describe: (result) => {
      const { apiKey, secret } = result as { apiKey: unknown; secret: string };
      return [
        ...record("API key rotated; the new key", apiKey),
        "new secret (shown once, it cannot be retrieved again; store it now):",
        `  ${secret}`,
        "the old secret keeps working until its grace period ends",
      ];
    },
  },
  "set-key-allowlist": {
    usage: "--id ID --ips a,b|none",
    document: `mutation ($id: ID!, $ips: [String!]!) { setApiKeyAllowedIps(id: $id, allowedIps: $ips) ${KEY} }`,
    title: "API key allowlist set",
    variables: (f) => ({ id: f.id, ips: f.ips === "none" ? [] : list(f.ips) }),
  },
  "set-key-lifetime": {
    usage: "--org ID --days N|none",
    document:
      "mutation ($org: ID!, $days: Int) { setKeyLifetimePolicy(organizationId: $org, maxKeyLifetimeDays: $days) { organizationId maxKeyLifetimeDays } }",
    title: "maximum key lifetime set",
    variables: (f) => {
      if (f.days === "none") return { org: f.org, days: null };
      const days = int(f.days, "days");
      if (days === undefined) throw usageError("--days must be a whole number or none");
      return { org: f.org, days };
    },
  },
};
