import { ACCOUNT_COMMANDS } from "./account-commands.ts";
import {
  bool,
  CliError,
  type CliIo,
  type Command,
  DEFAULT_URL,
  flagNames,
  int,
  list,
  parseFlags,
  pick,
  record,
  request,
  resolveTarget,
  usageError,
} from "./io.ts";
import { KEY_COMMANDS } from "./key-commands.ts";

export type { CliIo, Command, FetchLike } from "./io.ts";

const ORG = "{ id name plan dailyQuota unlimitedQuota requirePasskey createdAt }";
const KEY = "{ id organizationId userId name prefix scopes expiresAt revokedAt createdAt }";
const mutation = (type: string, field: string, selection: string) =>
  `mutation ($input: ${type}!) { ${field}(input: $input) ${selection} }`;

const COMMANDS: Record<string, Command> = {
  "create-org": {
    usage: "--name N [--plan FREE|PRO|ENTERPRISE] [--daily-quota N]",
    document: mutation("CreateOrganizationInput", "createOrganization", ORG),
    title: "organization created",
    variables: (f) => ({
      input: { name: f.name, plan: f.plan, dailyQuota: int(f["daily-quota"], "daily-quota") },
    }),
  },
  "update-org": {
    usage:
      "--id ID [--name N] [--plan P] [--daily-quota N|default] [--unlimited true|false] [--require-passkey true|false]",
    document: `mutation ($id: ID!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) ${ORG} }`,
    title: "organization updated",
    variables: (f) => {
      const quota = f["daily-quota"];
      const input = {
        name: f.name,
        plan: f.plan,
        // an explicit null is how the API resets the quota to the plan's default
        dailyQuota: quota === "default" ? null : int(quota, "daily-quota"),
        unlimitedQuota: bool(f.unlimited, "unlimited"),
        requirePasskey: bool(f["require-passkey"], "require-passkey"),
      };
      if (Object.values(input).every((v) => v === undefined)) throw usageError("nothing to change");
      return { id: f.id, input };
    },
  },
  "create-user": {
    usage: "--email E --first-name F --last-name L",
    document: mutation(
      "CreateUserInput",
      "createUser",
      "{ id email firstName lastName createdAt }",
    ),
    title: "user created",
    variables: (f) => ({
      input: { email: f.email, firstName: f["first-name"], lastName: f["last-name"] },
    }),
  },
  "add-member": {
    usage: "--org ID --user ID --role admin|technician|CUSTOM",
    document: mutation("AddMemberInput", "addMember", "{ organizationId userId role createdAt }"),
    title: "member added",
    variables: (f) => ({ input: { organizationId: f.org, userId: f.user, role: f.role } }),
  },
  "remove-member": {
    usage: "--org ID --user ID",
    document:
      "mutation ($org: ID!, $user: ID!) { removeMember(organizationId: $org, userId: $user) }",
    title: "member removed",
    variables: (f) => ({ org: f.org, user: f.user }),
    describe: (removed) => [removed ? "member removed" : "nothing to do: not a member"],
  },
  "create-role": {
    usage: "--org ID --name N --seat ADMIN|TECHNICIAN|USER --permissions a,b",
    document: mutation(
      "CreateRoleInput",
      "createRole",
      "{ id organizationId name seat permissions createdAt }",
    ),
    title: "role created",
    variables: (f) => ({
      input: {
        organizationId: f.org,
        name: f.name,
        seat: f.seat,
        permissions: list(f.permissions),
      },
    }),
  },
  "create-key": {
    usage:
      "--org ID --user ID --name N --scopes a,b " +
      "[--expires-in DAYS_30|DAYS_90 (default)|MONTHS_6|YEAR_1|NEVER | --expires-at ISO] [--allowed-ips a,b]",
    document: mutation("CreateApiKeyInput", "createApiKey", `{ apiKey ${KEY} secret }`),
    title: "API key created",
    variables: (f) => {
      const at = f["expires-at"];
      if (at !== undefined && f["expires-in"] !== undefined)
        throw usageError("give --expires-in or --expires-at, not both");
      // the API insists on an explicit choice; the CLI's default is the settings page's (90
      // days), and a key that never expires must be asked for with --expires-in NEVER
      const expiry =
        at !== undefined ? { expiresAt: at } : { expiresIn: f["expires-in"] ?? "DAYS_90" };
      const { org, user, name } = f;
      return {
        input: {
          organizationId: org,
          userId: user,
          name,
          scopes: list(f.scopes),
          allowedIps: f["allowed-ips"] === undefined ? undefined : list(f["allowed-ips"]),
          ...expiry,
        },
      };
    },
    describe: (result) => {
      const { apiKey, secret } = result as { apiKey: unknown; secret: string };
      return [
        ...record("API key created", apiKey),
        "secret (shown once, it cannot be retrieved again; store it now):",
        `  ${secret}`,
      ];
    },
  },
  "revoke-key": {
    usage: "--id ID",
    document: `mutation ($id: ID!) { revokeApiKey(id: $id) ${KEY} }`,
    title: "API key revoked",
    variables: (f) => ({ id: f.id }),
  },
  "add-ingest-source": {
    usage: "--org ID --cidr C [--label L]",
    document: mutation(
      "AddIngestSourceInput",
      "addIngestSource",
      "{ id organizationId cidr label createdAt }",
    ),
    title: "ingest source added",
    variables: (f) => ({ input: { organizationId: f.org, cidr: f.cidr, label: f.label } }),
  },
  "create-agent-release": {
    usage: "--version V --platform P --architecture A --channel C --download-url U --sha256 H",
    document: mutation(
      "CreateAgentReleaseInput",
      "createAgentRelease",
      "{ id version platform architecture channel releasedAt downloadUrl sha256 }",
    ),
    title: "agent release created",
    variables: (f) => {
      const { version, platform, architecture, channel, sha256 } = f;
      const downloadUrl = f["download-url"];
      return { input: { version, platform, architecture, channel, downloadUrl, sha256 } };
    },
  },
  ...ACCOUNT_COMMANDS,
  ...KEY_COMMANDS,
};

const HELP = `usage: npx orgit <command> [flags]   (or: npm run cli -- <command> [flags])

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name} ${c.usage}`)
  .join("\n")}
  help [command]

global flags:
  --url URL      service base URL (env ORGIT_URL, default ${DEFAULT_URL})
  --token TOKEN  operator token (env ADMIN_TOKEN; prefer the env, flags show up in ps)
  --json         print the GraphQL "data" field as JSON instead of text
  --get FIELD    print one field of the result alone (id, apiKey.id, secret…), for scripts
  -h, --help     show usage
`;

const commandUsage = (name: string, command: Command) =>
  `usage: npx orgit ${name} ${command.usage} [--json | --get FIELD]\n` +
  "(npx orgit help: all commands and global flags)\n";

/** Runs one CLI invocation and returns its exit code: 0 done, 1 failed, 2 bad usage. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.stderr(`${error.message.trimEnd()}\n`);
    return error.exitCode;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help" || name === "-h") {
    const topic = rest[0] ? COMMANDS[rest[0]] : undefined;
    io.stdout(topic ? commandUsage(rest[0] as string, topic) : HELP);
    return 0;
  }
  const command = name ? COMMANDS[name] : undefined;
  if (!name || !command) {
    throw new CliError(`error: ${name ? `unknown command: ${name}` : "no command"}\n\n${HELP}`, 2);
  }
  let parsed: ReturnType<typeof parseFlags>;
  let variables: Record<string, unknown>;
  try {
    parsed = parseFlags(command.usage, rest);
    if (parsed.help) {
      io.stdout(commandUsage(name, command));
      return 0;
    }
    const missing = flagNames(command.usage, true).filter((f) => parsed.flags[f] === undefined);
    if (missing.length > 0) throw usageError(`missing ${missing.map((f) => `--${f}`).join(", ")}`);
    variables = command.variables(parsed.flags, io.env);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(`${error.message}\n\n${commandUsage(name, command)}`, 2);
  }
  const target = resolveTarget(parsed.flags, io.env);
  const data = await request(io, target, command.document, variables);
  if (parsed.get !== undefined) {
    io.stdout(`${pick(Object.values(data)[0], parsed.get)}\n`);
  } else if (parsed.json) {
    io.stdout(`${JSON.stringify(data, null, 2)}\n`);
  } else {
    const result = Object.values(data)[0];
    io.stdout(`${(command.describe?.(result) ?? record(command.title, result)).join("\n")}\n`);
  }
  return 0;
}
