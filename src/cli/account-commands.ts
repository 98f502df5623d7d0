/**
 * Operator commands of the settings screen (docs/decisions.md §10): sign-in for members, and
 * reading what exists. Same table shape as commands.ts, which merges these in.
 */
import { type Command, int, record, usageError } from "./io.ts";

const when = (value: unknown) => (value ? String(value) : "-");

interface KeyLine {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  status: string;
  owner: { email: string };
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

const KEY_FIELDS =
  "{ id name prefix scopes status owner { email } createdAt expiresAt lastUsedAt }";

const keyLines = (keys: KeyLine[]) =>
  keys.length === 0
    ? ["  (none)"]
    : keys.map(
        (k) =>
          `  ${k.id}  ${k.status.toLowerCase().padEnd(7)}  ${k.prefix}…  ${k.name}  owner=${k.owner.email}` +
          `  scopes=${k.scopes.join(",")}  created=${k.createdAt}` +
          `  expires=${k.expiresAt ?? "never"}  lastUsed=${when(k.lastUsedAt)}`,
      );

export const ACCOUNT_COMMANDS: Record<string, Command> = {
  "invite-user": {
    usage: "--user ID",
    document: "mutation ($user: ID!) { createInvitation(userId: $user) { url expiresAt } }",
    title: "invitation created",
    variables: (f) => ({ user: f.user }),
    describe: (result) => [
      ...record("invitation created", result),
      "send the link to the user: it sets their password, works once, and expires in 7 days",
    ],
  },
  "set-password": {
    usage: "--user ID [--password P]",
    document:
      "mutation ($user: ID!, $password: String!) { setPassword(userId: $user, password: $password) }",
    title: "password set",
    variables: (f, env) => {
      // the environment is preferred: flags show up in `ps` and shell history
      const password = env.ORGIT_NEW_PASSWORD ?? f.password;
      if (!password) throw usageError("set ORGIT_NEW_PASSWORD (or pass --password)");
      return { user: f.user, password };
    },
    describe: () => ["password set; the user's existing sessions have ended"],
  },
  "list-orgs": {
    usage: "[--page N] [--limit N]",
    document:
      "query ($page: Int, $limit: Int) { organizations(page: $page, limit: $limit) { data { id name plan dailyQuota unlimitedQuota createdAt } pagination { page limit total } } }",
    title: "organizations",
    variables: (f) => ({ page: int(f.page, "page"), limit: int(f.limit, "limit") }),
    describe: (result) => {
      const { data, pagination } = result as {
        data: { id: string; name: string; plan: string }[];
        pagination: { page: number; limit: number; total: number };
      };
      return [
        `organizations (page ${pagination.page}, ${data.length} of ${pagination.total})`,
        ...data.map((o) => `  ${o.id}  ${o.plan.padEnd(10)}  ${o.name}`),
      ];
    },
  },
  "show-org": {
    usage: "--id ID",
    document: `query ($id: ID!) { organization(id: $id) {
      id name plan dailyQuota unlimitedQuota requirePasskey createdAt
      members { role createdAt passkeys user { id email firstName lastName } }
      roles { name seat permissions }
      ingestSources { cidr label }
      apiKeys ${KEY_FIELDS}
    } }`,
    title: "organization",
    variables: (f) => ({ id: f.id }),
    describe: (result) => {
      const { members, roles, ingestSources, apiKeys, ...org } = result as {
        members: {
          role: string;
          passkeys: number;
          user: { id: string; email: string; firstName: string; lastName: string };
        }[];
        roles: { name: string; seat: string; permissions: string[] }[];
        ingestSources: { cidr: string; label: string | null }[];
        apiKeys: KeyLine[];
      };
      return [
        ...record("organization", org),
        "members:",
        ...(members.length
          ? members.map(
              (m) =>
                `  ${m.user.id}  ${m.role.padEnd(10)}  ${m.user.email}  (${m.user.firstName} ${m.user.lastName})  passkeys=${m.passkeys}`,
            )
          : ["  (none)"]),
        "custom roles:",
        ...(roles.length
          ? roles.map((r) => `  ${r.name}  seat=${r.seat}  permissions=${r.permissions.join(",")}`)
          : ["  (none)"]),
        "ingest sources:",
        ...(ingestSources.length
          ? ingestSources.map((s) => `  ${s.cidr}${s.label ? `  ${s.label}` : ""}`)
          : ["  (none)"]),
        "API keys:",
        ...keyLines(apiKeys),
      ];
    },
  },
  "list-keys": {
    usage: "--org ID",
    document: `query ($org: ID!) { organization(id: $org) { apiKeys ${KEY_FIELDS} } }`,
    title: "API keys",
    variables: (f) => ({ org: f.org }),
    describe: (result) => [
      "API keys (metadata only; secrets are never stored)",
      ...keyLines((result as { apiKeys: KeyLine[] }).apiKeys),
    ],
  },
};
