import { type ClientOptions, Http } from "./http.js";
import type { ResponseMeta } from "./meta.js";
import type { Health, Whoami } from "./models.js";
import { AuditLogResource } from "./resources/audit-log.js";
import { ChangesResource } from "./resources/changes.js";
import {
  AgentReleasesResource,
  AlertsResource,
  EquipmentResource,
  EquipmentUnitsResource,
  GroupsResource,
  InstallResource,
  TicketsResource,
  UsersResource,
} from "./resources/interface-a.js";
import { ProjectsResource, WebhooksResource } from "./resources/interface-b.js";

/**
 * The orgit API client.
 *
 * ```ts
 * const orgit = new Orgit({ apiKey: "orgit_…", baseUrl: "https://orgit.example.com" });
 * const me = await orgit.whoami();
 * for await (const ticket of orgit.tickets.listAll({ status: "open" })) console.log(ticket.title);
 * ```
 *
 * Without an API key (argument or `ORGIT_API_KEY`) requests go out without `Authorization`:
 * the keyless routes (`alerts.ingest`, `install.get`) work, the others answer 401.
 */
export class Orgit {
  /** interface A: `/api/v1/equipments`, bulk-create, one record's get, update and retire */
  readonly equipment: EquipmentResource;
  /** `/install/{token}` (keyless) */
  readonly install: InstallResource;
  /** interface A: `/api/v1/equipment-units` */
  readonly equipmentUnits: EquipmentUnitsResource;
  /** interface A: `/api/v1/users` */
  readonly users: UsersResource;
  /** interface A: `/api/v1/groups` */
  readonly groups: GroupsResource;
  /** interface A: `/api/v1/agent-releases` */
  readonly agentReleases: AgentReleasesResource;
  /** interface A: `/api/v1/alerts`, ingest (keyless), one alert's get and moves */
  readonly alerts: AlertsResource;
  /** interface A: `/api/v1/tickets`, one ticket's get and update, its comments */
  readonly tickets: TicketsResource;
  /** interface B: `/api/projects` */
  readonly projects: ProjectsResource;
  /** interface B: `/api/webhooks` and their deliveries */
  readonly webhooks: WebhooksResource;
  /** `/api/v1/changes`: incremental sync (`sync(types, since)`) */
  readonly changes: ChangesResource;

  /** extensions: `/api/v1/audit-log`, its NDJSON export */
  readonly auditLog: AuditLogResource;
  private readonly http: Http;

  constructor(options: ClientOptions = {}) {
    const http = new Http(options);
    this.http = http;
    this.equipment = new EquipmentResource(http);
    this.install = new InstallResource(http);
    this.equipmentUnits = new EquipmentUnitsResource(http);
    this.users = new UsersResource(http);
    this.groups = new GroupsResource(http);
    this.agentReleases = new AgentReleasesResource(http);
    this.alerts = new AlertsResource(http);
    this.tickets = new TicketsResource(http);
    this.projects = new ProjectsResource(http);
    this.webhooks = new WebhooksResource(http);
    this.changes = new ChangesResource(http);

    this.auditLog = new AuditLogResource(http);
  }

  /** The service origin requests go to (no trailing slash). */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /**
   * The most recent response's status, request id, rate-limit and quota headers. With
   * concurrent requests use `onResponse` instead (called for every response).
   */
  get lastResponse(): ResponseMeta | undefined {
    return this.http.lastResponse;
  }

  /** `GET /api/v1/whoami`: the key's organization, user and scopes. */
  whoami(): Promise<Whoami> {
    return this.http.request({ method: "GET", path: "/api/v1/whoami" });
  }

  /** `GET /api/v1/health`: the key works and the quota is not spent (does not use quota). */
  health(): Promise<Health> {
    return this.http.request({ method: "GET", path: "/api/v1/health" });
  }
}
