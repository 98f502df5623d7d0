import type { Http } from "../http.js";
import type {
  AgentReleaseList,
  AgentReleaseListQuery,
  AlertIngestBody,
  AlertList,
  AlertListQuery,
  BulkCreateInput,
  BulkCreateItem,
  BulkCreateResult,
  EquipmentListQuery,
  EquipmentPage,
  GroupList,
  GroupListQuery,
  IngestResult,
  InstallInfo,
  MemberList,
  MemberListQuery,
  Ticket,
  TicketCreateInput,
  TicketListQuery,
  TicketPage,
  UnitList,
  UnitListQuery,
} from "../models.js";
import { byId } from "../pagination.js";
import { OffsetListResource, segment } from "./base.js";

/** Options of a POST that honours `Idempotency-Key`; one is generated when you pass none. */
export interface IdempotentOptions {
  idempotencyKey?: string;
}

/** `GET /api/v1/equipments`, `POST /api/v1/equipments/bulk-create`. */
export class EquipmentResource extends OffsetListResource<EquipmentPage, EquipmentListQuery> {
  constructor(http: Http) {
    super(http, "/api/v1/equipments", byId);
  }

  /** Creates 1 to 100 items; invalid ones are listed in `errors` (400 when none is valid). */
  bulkCreate(
    items: BulkCreateItem[],
    options: IdempotentOptions & { tokenKind?: BulkCreateInput["tokenKind"] } = {},
  ): Promise<BulkCreateResult> {
    const body: BulkCreateInput = { items };
    if (options.tokenKind !== undefined) body.tokenKind = options.tokenKind;
    return this.http.request({
      method: "POST",
      path: "/api/v1/equipments/bulk-create",
      body,
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
    });
  }
}

/** `GET /install/{token}`: no API key, the link is the credential. */
export class InstallResource {
  constructor(private readonly http: Http) {}

  /** Takes the token or the whole `installUrl` of a bulk-create answer. */
  get(tokenOrUrl: string): Promise<InstallInfo> {
    const token = tokenOrUrl.includes("/install/")
      ? (tokenOrUrl.split("/install/").pop() ?? "")
      : tokenOrUrl;
    return this.http.request({ method: "GET", path: `/install/${segment(token)}`, auth: false });
  }
}

/** `GET /api/v1/equipment-units`. */
export class EquipmentUnitsResource extends OffsetListResource<UnitList, UnitListQuery> {
  constructor(http: Http) {
    super(http, "/api/v1/equipment-units", byId);
  }
}

/** `GET /api/v1/groups`. */
export class GroupsResource extends OffsetListResource<GroupList, GroupListQuery> {
  constructor(http: Http) {
    super(http, "/api/v1/groups", byId);
  }
}

/** `GET /api/v1/users`: the organization's members. */
export class UsersResource extends OffsetListResource<MemberList, MemberListQuery> {
  constructor(http: Http) {
    super(http, "/api/v1/users", (member) => member.userId);
  }
}

/** `GET /api/v1/agent-releases` (filters `platform`, `channel`). */
export class AgentReleasesResource extends OffsetListResource<
  AgentReleaseList,
  AgentReleaseListQuery
> {
  constructor(http: Http) {
    super(http, "/api/v1/agent-releases", byId);
  }
}

/** `GET /api/v1/alerts`, `POST /api/v1/alerts/ingest`. */
export class AlertsResource extends OffsetListResource<AlertList, AlertListQuery> {
  constructor(http: Http) {
    super(http, "/api/v1/alerts", byId);
  }

  /**
   * One alert or `{ alerts: [...] }` (1 to 100). No API key: the caller's IP must be one of an
   * organization's ingest sources. Not retried on 5xx or network errors (no Idempotency-Key;
   * send `externalId` to make a resend harmless).
   */
  ingest(alertOrBatch: AlertIngestBody): Promise<IngestResult> {
    return this.http.request({
      method: "POST",
      path: "/api/v1/alerts/ingest",
      body: alertOrBatch,
      auth: false,
    });
  }
}

/** `GET /api/v1/tickets`, `POST /api/v1/tickets` (snake_case answers). */
export class TicketsResource extends OffsetListResource<TicketPage, TicketListQuery> {
  constructor(http: Http) {
    super(http, "/api/v1/tickets", byId);
  }

  create(input: TicketCreateInput, options: IdempotentOptions = {}): Promise<Ticket> {
    return this.http.request({
      method: "POST",
      path: "/api/v1/tickets",
      body: input,
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
    });
  }
}
