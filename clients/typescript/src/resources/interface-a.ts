import { type Http, withQuery } from "../http.js";
import type {
  AgentReleaseList,
  AgentReleaseListQuery,
  AlertIngestBody,
  AlertList,
  AlertListQuery,
  AlertRecord,
  BulkCreateInput,
  BulkCreateItem,
  BulkCreateResult,
  EquipmentListQuery,
  EquipmentPage,
  EquipmentRecord,
  EquipmentUpdateInput,
  GroupList,
  GroupListQuery,
  IngestResult,
  InstallInfo,
  MemberList,
  MemberListQuery,
  Ticket,
  TicketComment,
  TicketCommentList,
  TicketCommentListQuery,
  TicketCreateInput,
  TicketListQuery,
  TicketPage,
  TicketRecord,
  TicketUpdateInput,
  UnitList,
  UnitListQuery,
} from "../models.js";
import { byId, followCursors } from "../pagination.js";
import { OffsetListResource, segment } from "./base.js";

/** Options of a POST that honours `Idempotency-Key`; one is generated when you pass none. */
export interface IdempotentOptions {
  idempotencyKey?: string;
}

/** A change that checks the version it expects: `ifMatch` is the `version` (or ETag) you read. */
export interface VersionedOptions {
  ifMatch?: number | string;
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

  /** `GET /api/v1/equipments/{id}`: one record with `updatedAt`, `retiredAt`, `version`. */
  get(id: string): Promise<EquipmentRecord> {
    return this.http.request({ method: "GET", path: `/api/v1/equipments/${segment(id)}` });
  }

  /** `PATCH /api/v1/equipments/{id}`: at least one field; null clears an optional one. */
  update(
    id: string,
    input: EquipmentUpdateInput,
    options: VersionedOptions = {},
  ): Promise<EquipmentRecord> {
    return this.http.request({
      method: "PATCH",
      path: `/api/v1/equipments/${segment(id)}`,
      body: input,
      ifMatch: options.ifMatch,
    });
  }

  /** `POST /api/v1/equipments/{id}/retire`: status `retired`, for good. */
  retire(id: string, options: VersionedOptions & IdempotentOptions = {}): Promise<EquipmentRecord> {
    return this.http.request({
      method: "POST",
      path: `/api/v1/equipments/${segment(id)}/retire`,
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
      ifMatch: options.ifMatch,
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

  /** `GET /api/v1/alerts/{id}`: the alert with who moved it, when and why, and `version`. */
  get(id: string): Promise<AlertRecord> {
    return this.http.request({ method: "GET", path: `/api/v1/alerts/${segment(id)}` });
  }

  /** open → acknowledged. */
  acknowledge(id: string, options: MoveOptions = {}): Promise<AlertRecord> {
    return this.move(id, "acknowledge", options);
  }

  /** open or acknowledged → resolved. */
  resolve(id: string, options: MoveOptions = {}): Promise<AlertRecord> {
    return this.move(id, "resolve", options);
  }

  /** acknowledged or resolved → open. */
  reopen(id: string, options: Omit<MoveOptions, "note"> = {}): Promise<AlertRecord> {
    return this.move(id, "reopen", options);
  }

  private move(id: string, move: string, options: MoveOptions): Promise<AlertRecord> {
    return this.http.request({
      method: "POST",
      path: `/api/v1/alerts/${segment(id)}/${move}`,
      body: options.note === undefined ? {} : { note: options.note },
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
      ifMatch: options.ifMatch,
    });
  }
}

/** An alert move: an optional note (up to 10,000 characters), If-Match, Idempotency-Key. */
export interface MoveOptions extends VersionedOptions, IdempotentOptions {
  note?: string;
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

  /** `GET /api/v1/tickets/{id}`: the whole ticket, with `assignee_id`, `updated_at`, `version`. */
  get(id: string): Promise<TicketRecord> {
    return this.http.request({ method: "GET", path: `/api/v1/tickets/${segment(id)}` });
  }

  /** `PATCH /api/v1/tickets/{id}`: title, description, priority, status, assigneeId. */
  update(
    id: string,
    input: TicketUpdateInput,
    options: VersionedOptions = {},
  ): Promise<TicketRecord> {
    return this.http.request({
      method: "PATCH",
      path: `/api/v1/tickets/${segment(id)}`,
      body: input,
      ifMatch: options.ifMatch,
    });
  }

  /** `GET /api/v1/tickets/{id}/comments`, newest first. */
  listComments(id: string, query: TicketCommentListQuery = {}): Promise<TicketCommentList> {
    const path = withQuery(`/api/v1/tickets/${segment(id)}/comments`, query);
    return this.http.request({ method: "GET", path });
  }

  /**
   * Every comment of a ticket, newest first, by cursor pages (the `Link` header's `rel="next"`);
   * `limit` is the page size (default 200).
   */
  paginateComments(id: string, query: { limit?: number } = {}): AsyncGenerator<TicketComment> {
    const first = withQuery(`/api/v1/tickets/${segment(id)}/comments`, {
      limit: query.limit ?? 200,
    });
    return followCursors(
      (path) => this.http.exchange<TicketCommentList>({ method: "GET", path }),
      first,
    );
  }

  /** `POST /api/v1/tickets/{id}/comments`: 1 to 10,000 characters. */
  addComment(id: string, body: string, options: IdempotentOptions = {}): Promise<TicketComment> {
    return this.http.request({
      method: "POST",
      path: `/api/v1/tickets/${segment(id)}/comments`,
      body: { body },
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
    });
  }
}
