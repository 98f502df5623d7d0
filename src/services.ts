import type { KeyStore } from "./auth/key-store.ts";
import type { SessionStore } from "./auth/sessions.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { Limits } from "./limits/limits.ts";
import type { Logger } from "./logger.ts";
import type { AgentReleaseService } from "./modules/agent-releases/service.ts";
import type { AlertService } from "./modules/alerts/service.ts";
import type { EquipmentService } from "./modules/equipment/service.ts";
import type { GroupService } from "./modules/groups/service.ts";
import type { ApiKeyAdmin } from "./modules/operator/api-keys.ts";
import type { OperatorService } from "./modules/operator/service.ts";
import type { ProjectService } from "./modules/projects/service.ts";
import type { AccountService } from "./modules/settings/accounts.ts";
import type { OperatorReads } from "./modules/settings/operator-reads.ts";
import type { MemberKeyService } from "./modules/settings/service.ts";
import type { TicketService } from "./modules/tickets/service.ts";
import type { UnitService } from "./modules/units/service.ts";
import type { MemberService } from "./modules/users/service.ts";
import type { WebhookService } from "./modules/webhooks/service.ts";

/** Long-lived collaborators, built once per app and handed to resolvers through the context. */
export interface Services {
  config: Config;
  logger: Logger;
  database: Database;
  keys: KeyStore;
  operator: OperatorService;
  apiKeys: ApiKeyAdmin;
  /** the settings screen: sessions, passwords and invitations, members' own keys */
  sessions: SessionStore;
  accounts: AccountService;
  memberKeys: MemberKeyService;
  operatorReads: OperatorReads;
  /** rate limits and daily quota; `noLimits` when built with `limits: false` (bench baseline) */
  limits: Limits;
  projects: ProjectService;
  tickets: TicketService;
  equipment: EquipmentService;
  units: UnitService;
  groups: GroupService;
  members: MemberService;
  agentReleases: AgentReleaseService;
  alerts: AlertService;
  webhooks: WebhookService;
  now: () => Date;
}
