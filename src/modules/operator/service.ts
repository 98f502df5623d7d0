import type { AuditTrail } from "../../auth/audit-trail.ts";
import type { KeyStore } from "../../auth/key-store.ts";
import type { Database } from "../../db/client.ts";
import type {
  AddIngestSourceInput,
  AddMemberInput,
  CreateAgentReleaseInput,
  CreateOrganizationInput,
  CreateRoleInput,
  CreateUserInput,
  UpdateOrganizationInput,
} from "../../generated/schema.ts";
import { AgentReleaseAdmin } from "./agent-releases.ts";
import { IngestSourceAdmin } from "./ingest-sources.ts";
import { MemberAdmin } from "./members.ts";
import { OrganizationAdmin } from "./organizations.ts";
import { RoleAdmin } from "./roles.ts";
import { UserAdmin } from "./users.ts";

/**
 * The operator mutations of docs/decisions.md §3, one entry for the resolvers, the CLI's
 * demo seed and the tests. Each kind of thing has its own file with its rules (API keys:
 * api-keys.ts, a service of its own); their SQL is in queries.ts. Each validates everything
 * before writing. The caller is authorized by the resolver (`requireOperator`).
 */
export class OperatorService {
  private readonly organizations: OrganizationAdmin;
  private readonly users: UserAdmin;
  private readonly members: MemberAdmin;
  private readonly roles: RoleAdmin;
  private readonly ingestSources: IngestSourceAdmin;
  private readonly agentReleases: AgentReleaseAdmin;

  constructor(
    database: Database,
    keys: KeyStore,
    now: () => Date = () => new Date(),
    audit?: Pick<AuditTrail, "record">,
  ) {
    this.organizations = new OrganizationAdmin(database, keys, now, audit);
    this.users = new UserAdmin(database);
    this.members = new MemberAdmin(database, keys);
    this.roles = new RoleAdmin(database);
    this.ingestSources = new IngestSourceAdmin(database);
    this.agentReleases = new AgentReleaseAdmin(database);
  }

  createOrganization(input: CreateOrganizationInput) {
    return this.organizations.create(input);
  }

  updateOrganization(id: string, input: UpdateOrganizationInput) {
    return this.organizations.update(id, input);
  }

  createUser(input: CreateUserInput) {
    return this.users.create(input);
  }

  /** Adds a member, or changes the role of one who already is. */
  addMember(input: AddMemberInput) {
    return this.members.add(input);
  }

  removeMember(organizationId: string, userId: string): Promise<boolean> {
    return this.members.remove(organizationId, userId);
  }

  createRole(input: CreateRoleInput) {
    return this.roles.create(input);
  }

  addIngestSource(input: AddIngestSourceInput) {
    return this.ingestSources.add(input);
  }

  createAgentRelease(input: CreateAgentReleaseInput) {
    return this.agentReleases.create(input);
  }
}
