// generated — do not edit, run `npx bun run clients/typescript/scripts/generate-types.ts`
// Source: the service's OpenAPI document (GET /swagger/json), application/json content only,
// and the webhook events' bodies (components WebhookEvent and *Event, from src/features.ts).

export interface paths {
  "/api/v1/whoami": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Identity of the calling key
     * @description Any valid key; no scope needed.
     */
    get: operations["getWhoami"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Key validity and quota check */
    get: operations["getHealth"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/equipment-units": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List organizational units
     * @description Scope equipment:read (no role permission beyond API access: units are the organization's structure). Pagination envelope, newest first; `limit` 1 to 200 (default 50), `offset` ≥ 0.
     */
    get: operations["listEquipmentUnits"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/groups": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List groups
     * @description Scope users:read and permission users.view. Pagination envelope, newest first; `limit` 1 to 200 (default 50), `offset` ≥ 0. `memberCount` counts members who still belong to the organization.
     */
    get: operations["listGroups"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/users": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List organization members
     * @description Scope users:read and permission users.view. Pagination envelope, newest member first; `limit` 1 to 200 (default 50), `offset` ≥ 0. `profile.email` appears only when the key owner holds users.manage.
     */
    get: operations["listUsers"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/agent-releases": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List agent releases
     * @description Any key with API access; no scope needed. Releases are global, the same for every organization. Filters `platform` and `channel`; newest release first; `limit` 1 to 200 (default 50), `offset` ≥ 0.
     */
    get: operations["listAgentReleases"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/alerts/ingest": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ingest external alerts (inbound webhook)
     * @description No API key: the caller's IP (the socket peer, or the first untrusted X-Forwarded-For hop behind a TRUST_PROXY proxy) must fall in an organization's ingest source, which also names the organization; otherwise 403 `IP not allowed`. Body: one alert or `{ alerts: [...] }` (1 to 100); the whole body is checked before anything is stored. An alert with the source + externalId of a stored one (or of an earlier one in the batch) is a duplicate and is not stored again. 202 with `ids` in request order.
     */
    post: operations["ingestAlerts"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/alerts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List alerts
     * @description Scope alerts:read and permission alerts.view. Filters `status` and `severity`; newest received first; `limit` 1 to 200 (default 50), `offset` ≥ 0.
     */
    get: operations["listAlerts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/alerts/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an alert
     * @description Scope alerts:read and permission alerts.view. `ETag: "<version>"`.
     */
    get: operations["getAlert"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/alerts/{id}/acknowledge": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Acknowledge an alert
     * @description Scope alerts:write and permission alerts.manage. open → acknowledged, with an optional note. Emits alert.acknowledged. Any other move is 409 `Invalid status transition: <from> → <to>`.
     */
    post: operations["acknowledgeAlert"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/alerts/{id}/resolve": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resolve an alert
     * @description Scope alerts:write and permission alerts.manage. open or acknowledged → resolved, with an optional note. Emits alert.resolved. Any other move is 409 `Invalid status transition: <from> → <to>`.
     */
    post: operations["resolveAlert"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/alerts/{id}/reopen": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reopen an alert
     * @description Scope alerts:write and permission alerts.manage. acknowledged or resolved → open; who and why of both are cleared. Emits alert.reopened. Any other move is 409 `Invalid status transition: <from> → <to>`.
     */
    post: operations["reopenAlert"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/tickets": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List tickets
     * @description Scope tickets:read. Newest first. Without the permission tickets.view_all only the tickets the key owner created are listed.
     */
    get: operations["listTickets"];
    put?: never;
    /**
     * Create a ticket
     * @description Scope tickets:write. Created open, on behalf of the key owner; priority defaults to medium. An equipmentId must be equipment of your organization.
     */
    post: operations["createTicket"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/tickets/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a ticket
     * @description Scope tickets:read. Without the permission tickets.view_all only tickets the key owner created; any other id is 404. `ETag: "<version>"`.
     */
    get: operations["getTicket"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update a ticket
     * @description Scope tickets:write. With tickets.manage: any field of any ticket the key sees, assigneeId included. Without it: only tickets the key owner created, and only title, description, priority and status → closed (403 otherwise). A status move outside the allowed ones is 409 `Invalid status transition: <from> → <to>`. `If-Match` with another version → 412 `Version mismatch`. Emits ticket.updated.
     */
    patch: operations["updateTicket"];
    trace?: never;
  };
  "/api/v1/tickets/{id}/comments": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a ticket's comments
     * @description Scope tickets:read, on a ticket the key can read. Newest first. `after` (the Link header's rel="next") pages by cursor instead of offset.
     */
    get: operations["listTicketComments"];
    put?: never;
    /**
     * Comment on a ticket
     * @description Scope tickets:write, on a ticket the key can read. 1 to 10,000 characters. Emits ticket.commented.
     */
    post: operations["addTicketComment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/equipments": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List equipment
     * @description Scope equipment:read. Newest first. Without the permission equipment.view_all only equipment assigned to the key owner is listed.
     */
    get: operations["listEquipment"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/equipments/bulk-create": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create up to 100 equipment records with agent install links
     * @description Scope equipment:write and permission equipment.manage. Every item is checked; the valid ones are created together (status pending), the others are listed in `errors`. 201 when at least one was created.
     */
    post: operations["bulkCreateEquipment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/equipments/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one equipment record
     * @description Scope equipment:read. Without the permission equipment.view_all only equipment assigned to the key owner; any other id is 404. `ETag: "<version>"`.
     */
    get: operations["getEquipment"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Update an equipment record
     * @description Scope equipment:write and permission equipment.manage. Give at least one field; null clears an optional one. `If-Match` with another version → 412 `Version mismatch`. Emits equipment.updated with the changed fields.
     */
    patch: operations["updateEquipment"];
    trace?: never;
  };
  "/api/v1/equipments/{id}/retire": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Retire an equipment record
     * @description Scope equipment:write and permission equipment.manage. Sets status retired and retiredAt, for good: a second retirement is 409 `Invalid status transition: retired → retired`. Emits equipment.retired.
     */
    post: operations["retireEquipment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/install/{token}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Agent install link
     * @description No API key: the link is the credential. Answers the equipment, the link's expiry and the newest stable agent release for the equipment's platform. An invitation link works once.
     */
    get: operations["getInstallInfo"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/projects": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List projects
     * @description Scope projects:read and permission projects.view. Newest first. page ≥ 1 (default 1), limit 1 to 100 (default 10); outside the range → 400.
     */
    get: operations["listProjects"];
    put?: never;
    /**
     * Create a project
     * @description Scope projects:write and permission projects.manage. `description` defaults to "". Emits project.created. Send `Idempotency-Key` to make retries safe.
     */
    post: operations["createProject"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/projects/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a project
     * @description Scope projects:read and permission projects.view.
     */
    get: operations["getProject"];
    put?: never;
    post?: never;
    /**
     * Delete a project
     * @description Scope projects:write and permission projects.manage. Emits project.deleted with the project as it was.
     */
    delete: operations["deleteProject"];
    options?: never;
    head?: never;
    /**
     * Update a project
     * @description Scope projects:write and permission projects.manage. Give name, description or both; answers the whole project. Emits project.updated.
     */
    patch: operations["updateProject"];
    trace?: never;
  };
  "/api/webhooks": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks
     * @description Scope webhooks:read and permission webhooks.manage; any plan. Secrets are never shown.
     */
    get: operations["listWebhooks"];
    put?: never;
    /**
     * Subscribe a URL to project events
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Answers the whsec_ signing secret once. The URL must be https and resolve to public addresses (unless ALLOW_PRIVATE_WEBHOOK_URLS). At most 20 per organization.
     */
    post: operations["createWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/webhooks/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a webhook
     * @description Scope webhooks:read and permission webhooks.manage; any plan.
     */
    get: operations["getWebhook"];
    put?: never;
    post?: never;
    /**
     * Delete a webhook
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Its pending deliveries are dropped.
     */
    delete: operations["deleteWebhook"];
    options?: never;
    head?: never;
    /**
     * Change a webhook
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Give url, events, active or several.
     */
    patch: operations["updateWebhook"];
    trace?: never;
  };
  "/api/webhooks/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate the signing secret
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Answers a new whsec_ secret once. During the grace period every delivery's webhook-signature holds two signatures (new, then previous); after it only the new one (docs/webhooks.md).
     */
    post: operations["rotateWebhookSecret"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/webhooks/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Delivery log of a webhook
     * @description Scope webhooks:read and permission webhooks.manage; any plan. One entry per event sent to this webhook: attempts, last status code and error, next attempt, delivered at.
     */
    get: operations["listWebhookDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/webhooks/{id}/deliveries/{deliveryId}/retry": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivery again now
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Queues one more attempt at once, whatever the delivery's state (a delivered event is sent again with the same webhook-id).
     */
    post: operations["retryWebhookDelivery"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/changes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Follow every change (incremental sync)
     * @description Changes of tickets (scope tickets:read), alerts (alerts:read and permission alerts.view) and equipment (equipment:read), oldest first, each change once. Store `next` and send it as `since`. A type asked for without its rights: 403. Without tickets.view_all only the key owner's tickets; without equipment.view_all only equipment assigned to the owner. Deletions are kept 30 days: an older token is a 410.
     */
    get: operations["listChanges"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/audit-log": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the usage and audit trail
     * @description Scope audit:read and permission audit.view (an ADMIN seat). Every authenticated request and key or session event of the organization, newest first, filtered by keyId, userId, route (a template), statusClass, ip and [from, to); keyset pages through `after` = the previous page's nextCursor.
     */
    get: operations["listAuditLog"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/audit-log/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export the audit trail as NDJSON
     * @description Scope audit:read and permission audit.view. Streams every entry of [from, to) (at most 31 days), oldest first, one JSON object per line.
     */
    get: operations["exportAuditLog"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      /** @description what went wrong, in plain words */
      error: string;
    };
    ErrorDetail: {
      /** @description names the field, e.g. ["items", "0", "name"] */
      path: string[];
      message: string;
    };
    ValidationError: {
      /** @description `Validation failed` (with details), or `Malformed JSON body` */
      error: string;
      details?: components["schemas"]["ErrorDetail"][];
    };
    /** @description A 429 answer: a rate limit gives `retryAfter` (seconds until a request is allowed again), the daily quota its `limit`, `used` and `window`. */
    RateLimited: {
      /** @description `Too many requests` (per IP), `API key rate limit exceeded` (per key or burst), `API quota exceeded` (daily quota), `Rate limit exceeded` (interface B plan limit) */
      error: string;
      /** @description seconds; rate limits only */
      retryAfter?: number;
      /** @description daily quota only */
      limit?: number;
      /** @description daily quota only */
      used?: number;
      /**
       * @description daily quota only
       * @constant
       */
      window?: "24h";
    };
    /** Whoami */
    Whoami: {
      organization: {
        id: string;
        name: string;
      };
      user: {
        id: string;
        /** @description effective role */
        role: string;
      };
      apiKey: {
        name: string;
        scopes: string[];
        /**
         * Format: date-time
         * @description null: never expires
         */
        expiresAt: string | null;
      };
    };
    /** Health */
    Health: {
      /** @constant */
      status: "ok";
    };
    /** EquipmentUnit */
    EquipmentUnit: {
      /** Format: uuid */
      id: string;
      name: string;
      /**
       * Format: uuid
       * @description enclosing unit; null at the top
       */
      parentId: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    /** Pagination */
    Pagination: {
      /** @description total number of items matching the filters */
      total: number;
      /** @description page size applied */
      limit: number;
      /** @description number of items skipped */
      offset: number;
    };
    /** EquipmentUnitList */
    EquipmentUnitList: {
      data: components["schemas"]["EquipmentUnit"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** Group */
    Group: {
      /** Format: uuid */
      id: string;
      name: string;
      description: string | null;
      /** @description members still in the organization */
      memberCount: number;
      /** Format: date-time */
      createdAt: string;
    };
    /** GroupList */
    GroupList: {
      data: components["schemas"]["Group"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** User */
    User: {
      /** Format: uuid */
      userId: string;
      /** @description admin, technician or a custom role name */
      role: string;
      profile: {
        firstName: string;
        lastName: string;
        /** @description present only when the key owner holds users.manage */
        email?: string;
      };
    };
    /** UserList */
    UserList: {
      data: components["schemas"]["User"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** AgentRelease */
    AgentRelease: {
      /** Format: uuid */
      id: string;
      /** @example 2.3.1 */
      version: string;
      /** @description windows, macos, linux, ios, android, other */
      platform: string;
      /**
       * @example x86_64
       * @example arm64
       */
      architecture: string;
      /**
       * @example stable
       * @example beta
       */
      channel: string;
      /** Format: date-time */
      releasedAt: string;
      downloadUrl: string;
      /** @description hex SHA-256 of the download */
      sha256: string;
    };
    /** AgentReleaseList */
    AgentReleaseList: {
      data: components["schemas"]["AgentRelease"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** IngestAlert */
    IngestAlert: {
      /** @description required, 1 to 100 characters */
      source: string;
      /** @description required, 1 to 200 characters */
      title: string;
      /**
       * @description info, warning or critical; default warning
       * @enum {string}
       */
      severity?: "info" | "warning" | "critical";
      /** @description up to 10000 characters */
      message?: string;
      /** @description 1 to 200 characters; with source it identifies a duplicate */
      externalId?: string;
      /**
       * Format: uuid
       * @description equipment of the organization
       */
      equipmentId?: string;
      /**
       * Format: date-time
       * @description with a time zone
       */
      occurredAt?: string;
    } & {
      [key: string]: unknown;
    };
    /** IngestBatch */
    IngestBatch: {
      alerts: components["schemas"]["IngestAlert"][];
    };
    /** IngestResult */
    IngestResult: {
      /** @description alerts in the request */
      received: number;
      /** @description alerts stored now */
      created: number;
      /** @description alerts whose source + externalId was already known */
      duplicates: number;
      /** @description one per received alert, in order; a duplicate's is the id of the alert it repeats */
      ids: string[];
    };
    /** Alert */
    Alert: {
      /** Format: uuid */
      id: string;
      source: string;
      externalId: string | null;
      /** @enum {string} */
      severity: "info" | "warning" | "critical";
      /** @enum {string} */
      status: "open" | "acknowledged" | "resolved";
      title: string;
      message: string | null;
      /** Format: uuid */
      equipmentId: string | null;
      /**
       * Format: date-time
       * @description sender's time
       */
      occurredAt: string | null;
      /** Format: date-time */
      receivedAt: string;
    };
    /** AlertList */
    AlertList: {
      data: components["schemas"]["Alert"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** AlertRecord */
    AlertRecord: {
      /** Format: uuid */
      id: string;
      source: string;
      externalId: string | null;
      /** @enum {string} */
      severity: "info" | "warning" | "critical";
      /** @enum {string} */
      status: "open" | "acknowledged" | "resolved";
      title: string;
      message: string | null;
      /** Format: uuid */
      equipmentId: string | null;
      /**
       * Format: date-time
       * @description sender's time
       */
      occurredAt: string | null;
      /** Format: date-time */
      receivedAt: string;
      /** Format: date-time */
      acknowledgedAt: string | null;
      /**
       * Format: uuid
       * @description a user id
       */
      acknowledgedBy: string | null;
      acknowledgementNote: string | null;
      /** Format: date-time */
      resolvedAt: string | null;
      /**
       * Format: uuid
       * @description a user id
       */
      resolvedBy: string | null;
      resolutionNote: string | null;
      /**
       * Format: date-time
       * @description when it last changed
       */
      updatedAt: string;
      /** @description +1 per change; the ETag */
      version: number;
    };
    /** AlertMove */
    AlertMove: {
      /** @description why, up to 10000 characters (not on reopen) */
      note?: string;
    };
    /** Ticket */
    Ticket: {
      /** Format: uuid */
      id: string;
      title: string;
      /** @enum {string} */
      status: "open" | "in_progress" | "resolved" | "closed";
      /** @enum {string} */
      priority: "low" | "medium" | "high" | "critical";
      /** Format: uuid */
      equipment_id: string | null;
      /**
       * Format: uuid
       * @description the key owner's user id
       */
      created_by: string;
      /** Format: date-time */
      created_at: string;
    };
    /** TicketPage */
    TicketPage: {
      data: components["schemas"]["Ticket"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** CreateTicket */
    CreateTicket: {
      /** @description 5 to 200 characters */
      title: string;
      /** @description 10 to 5000 characters */
      description: string;
      /**
       * @description default medium
       * @enum {string}
       */
      priority?: "low" | "medium" | "high" | "critical";
      /**
       * Format: uuid
       * @description equipment of your organization
       */
      equipmentId?: string;
    };
    /** TicketRecord */
    TicketRecord: {
      /** Format: uuid */
      id: string;
      title: string;
      description: string;
      /** @enum {string} */
      status: "open" | "in_progress" | "resolved" | "closed";
      /** @enum {string} */
      priority: "low" | "medium" | "high" | "critical";
      /** Format: uuid */
      equipment_id: string | null;
      /**
       * Format: uuid
       * @description the member working on it
       */
      assignee_id: string | null;
      /**
       * Format: uuid
       * @description the key owner's user id
       */
      created_by: string;
      /** Format: date-time */
      created_at: string;
      /**
       * Format: date-time
       * @description when a field last changed
       */
      updated_at: string;
      /** @description +1 per change; the ETag */
      version: number;
    };
    /** UpdateTicket */
    UpdateTicket: {
      /** @description 5 to 200 characters */
      title?: string;
      /** @description 10 to 5000 characters */
      description?: string;
      /**
       * @description one of low, medium, high, critical
       * @enum {string}
       */
      priority?: "low" | "medium" | "high" | "critical";
      /**
       * @description open → in_progress | resolved | closed; in_progress → open | resolved | closed; resolved → in_progress | closed; closed is final
       * @enum {string}
       */
      status?: "open" | "in_progress" | "resolved" | "closed";
      assigneeId?: string | null;
    };
    /** TicketComment */
    TicketComment: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      ticketId: string;
      /**
       * Format: uuid
       * @description the key owner who wrote it
       */
      authorId: string;
      body: string;
      /** Format: date-time */
      createdAt: string;
    };
    /** TicketCommentList */
    TicketCommentList: {
      data: components["schemas"]["TicketComment"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** AddTicketComment */
    AddTicketComment: {
      /** @description 1 to 10000 characters */
      body: string;
    };
    /** Equipment */
    Equipment: {
      /** Format: uuid */
      id: string;
      name: string;
      /** @enum {string} */
      type:
        | "workstation"
        | "laptop"
        | "server"
        | "virtual_machine"
        | "mobile"
        | "network_device"
        | "printer"
        | "other";
      /** @enum {string|null} */
      platform: "windows" | "macos" | "linux" | "ios" | "android" | "other" | null;
      location: string | null;
      /** Format: uuid */
      unitId: string | null;
      managedBy: string | null;
      /** Format: uuid */
      assignedUserId: string | null;
      /** @enum {string} */
      status: "pending" | "online" | "offline" | "retired";
      /** Format: date-time */
      createdAt: string;
    };
    /** EquipmentPage */
    EquipmentPage: {
      data: components["schemas"]["Equipment"][];
      pagination: components["schemas"]["Pagination"];
    };
    /** BulkCreateEquipment */
    BulkCreateEquipment: {
      /** @description 1 to 100 records; each is checked on its own */
      items: {
        /** @description 1 to 200 characters */
        name: string;
        /** @description one of workstation, laptop, server, virtual_machine, mobile, network_device, printer, other */
        type: string;
        platform?: string | null;
        location?: string | null;
        unitId?: string | null;
        managedBy?: string | null;
        assignToUserId?: string | null;
      }[];
      /**
       * @description bulk (default): link reusable 7 days; invitation: one use, 30 days
       * @enum {string}
       */
      tokenKind?: "bulk" | "invitation";
    };
    /** BulkCreateResult */
    BulkCreateResult: {
      requested: number;
      created: number;
      failed: number;
      items: {
        name: string;
        /** Format: uuid */
        id: string;
        /**
         * Format: uri
         * @description agent install link
         */
        installUrl: string;
      }[];
      errors: {
        /** @description position in the request, from 0 */
        index: number;
        name: string | null;
        /** @description field and problem, e.g. `unitId: No unit with this id…` */
        error: string;
      }[];
    };
    /** EquipmentRecord */
    EquipmentRecord: {
      /** Format: uuid */
      id: string;
      name: string;
      /** @enum {string} */
      type:
        | "workstation"
        | "laptop"
        | "server"
        | "virtual_machine"
        | "mobile"
        | "network_device"
        | "printer"
        | "other";
      /** @enum {string|null} */
      platform: "windows" | "macos" | "linux" | "ios" | "android" | "other" | null;
      location: string | null;
      /** Format: uuid */
      unitId: string | null;
      managedBy: string | null;
      /** Format: uuid */
      assignedUserId: string | null;
      /** @enum {string} */
      status: "pending" | "online" | "offline" | "retired";
      /** Format: date-time */
      createdAt: string;
      /**
       * Format: date-time
       * @description when a field last changed
       */
      updatedAt: string;
      /**
       * Format: date-time
       * @description set when retired
       */
      retiredAt: string | null;
      /** @description +1 per change; the ETag */
      version: number;
    };
    /** UpdateEquipment */
    UpdateEquipment: {
      /** @description 1 to 200 characters */
      name?: string;
      /**
       * @description one of workstation, laptop, server, virtual_machine, mobile, network_device, printer, other
       * @enum {string}
       */
      type?:
        | "workstation"
        | "laptop"
        | "server"
        | "virtual_machine"
        | "mobile"
        | "network_device"
        | "printer"
        | "other";
      platform?: ("windows" | "macos" | "linux" | "ios" | "android" | "other") | null;
      location?: string | null;
      unitId?: string | null;
      managedBy?: string | null;
      assignedUserId?: string | null;
      /**
       * @description retiring is POST /equipments/{id}/retire
       * @enum {string}
       */
      status?: "pending" | "online" | "offline";
    };
    /** InstallInfo */
    InstallInfo: {
      /** Format: uuid */
      equipmentId: string;
      equipmentName: string;
      platform: string | null;
      /** @enum {string} */
      tokenKind: "bulk" | "invitation";
      /**
       * Format: date-time
       * @description when the link stops working
       */
      expiresAt: string;
      /** @description newest stable release for the equipment's platform; null if none */
      agentRelease: {
        id: string;
        version: string;
        platform: string;
        architecture: string;
        channel: string;
        /** Format: date-time */
        releasedAt: string;
        downloadUrl: string;
        sha256: string;
      } | null;
    };
    /** ProjectListItem */
    ProjectListItem: {
      /** Format: uuid */
      id: string;
      name: string;
      /** Format: date-time */
      createdAt: string;
    };
    /** PagePagination */
    PagePagination: {
      page: number;
      limit: number;
      /** @description projects in the organization */
      total: number;
    };
    /** ProjectList */
    ProjectList: {
      /** @description newest first; id breaks ties */
      data: components["schemas"]["ProjectListItem"][];
      pagination: components["schemas"]["PagePagination"];
    };
    /** ProjectCreated */
    ProjectCreated: {
      /** Format: uuid */
      id: string;
      name: string;
      description: string;
      /** Format: date-time */
      createdAt: string;
    };
    /** Project */
    Project: {
      /** Format: uuid */
      id: string;
      name: string;
      description: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    /** ProjectDeleted */
    ProjectDeleted: {
      success: boolean;
      /** @example Project deleted */
      message: string;
    };
    /** Webhook */
    Webhook: {
      /** Format: uuid */
      id: string;
      url: string;
      events: string[];
      active: boolean;
      /** @description why the service disabled it (410 Gone, failing for 5 days) */
      disabledReason: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    /** WebhookList */
    WebhookList: {
      /** @description newest first */
      data: components["schemas"]["Webhook"][];
      pagination: components["schemas"]["PagePagination"];
    };
    /** CreatedWebhook */
    CreatedWebhook: {
      /** Format: uuid */
      id: string;
      url: string;
      events: string[];
      active: boolean;
      /** Format: date-time */
      createdAt: string;
      /** @description whsec_… signing secret; shown only in this answer */
      secret: string;
    };
    /** WebhookDeleted */
    WebhookDeleted: {
      success: boolean;
      /** @example Webhook deleted */
      message: string;
    };
    /** RotatedWebhookSecret */
    RotatedWebhookSecret: {
      /** Format: uuid */
      id: string;
      /** @description the new whsec_… signing secret; shown only in this answer */
      secret: string;
      /**
       * Format: date-time
       * @description until then deliveries are signed with the previous secret too; null: none
       */
      previousSecretExpiresAt: string | null;
    };
    /** WebhookDelivery */
    WebhookDelivery: {
      /** Format: uuid */
      id: string;
      /** @description the message's `webhook-id` header: the same on every retry, dedupe on it */
      messageId: string;
      /**
       * @deprecated
       * @description Deprecated alias of messageId (the `webhook-id` header value, not the subscription)
       */
      webhookId: string;
      /**
       * Format: uuid
       * @description the subscription (the `:id` of /api/webhooks/:id)
       */
      subscriptionId: string;
      /** Format: uuid */
      eventId: string;
      eventType: string;
      /**
       * @default pending
       * @enum {string}
       */
      status: "pending" | "sending" | "delivered" | "failed";
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      /** Format: date-time */
      lastAttemptAt: string | null;
      /**
       * Format: date-time
       * @description null unless pending
       */
      nextAttemptAt: string | null;
      /** Format: date-time */
      deliveredAt: string | null;
      /** Format: date-time */
      createdAt: string;
    };
    /** WebhookDeliveryList */
    WebhookDeliveryList: {
      /** @description newest first */
      data: components["schemas"]["WebhookDelivery"][];
      pagination: components["schemas"]["PagePagination"];
    };
    /** Change */
    Change: {
      /** @enum {string} */
      type: "tickets" | "alerts" | "equipment";
      /** Format: uuid */
      id: string;
      /** @enum {string} */
      op: "upsert" | "delete";
      /**
       * Format: date-time
       * @description when the change was written
       */
      at: string;
      /** @description the record as its GET (/tickets/{id}, /alerts/{id}, /equipments/{id}) answers it now; null for a delete */
      record:
        | components["schemas"]["TicketRecord"]
        | components["schemas"]["AlertRecord"]
        | components["schemas"]["EquipmentRecord"]
        | null;
    };
    /** ChangePage */
    ChangePage: {
      data: components["schemas"]["Change"][];
      /** @description send as `since` next time; store it */
      next: string;
      /** @description more changes are ready now: ask again at once */
      hasMore: boolean;
    };
    /** AuditEntry */
    AuditEntry: {
      id: string;
      /** Format: date-time */
      at: string;
      /** @description request, or a key or session event (docs/security.md) */
      kind: string;
      /** Format: uuid */
      keyId: string | null;
      /** Format: uuid */
      userId: string | null;
      method: string | null;
      /** @description route template, e.g. /api/v1/tickets/:id */
      route: string | null;
      status: number | null;
      durationMs: number | null;
      ip: string | null;
      userAgent: string | null;
      requestId: string | null;
      /** @description an event's facts */
      detail: {
        [key: string]: unknown;
      } | null;
    };
    /** AuditLogPage */
    AuditLogPage: {
      data: components["schemas"]["AuditEntry"][];
      /** @description pass as `after`; null on the last page */
      nextCursor: string | null;
    };
    AlertCreatedEvent: {
      /** @constant */
      type: "alert.created";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** AlertEventData */
      data: {
        /** @description the alert, as GET answers it */
        alert: components["schemas"]["AlertRecord"];
      };
    };
    AlertAcknowledgedEvent: {
      /** @constant */
      type: "alert.acknowledged";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** AlertEventData */
      data: {
        /** @description the alert, as GET answers it */
        alert: components["schemas"]["AlertRecord"];
      };
    };
    AlertResolvedEvent: {
      /** @constant */
      type: "alert.resolved";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** AlertEventData */
      data: {
        /** @description the alert, as GET answers it */
        alert: components["schemas"]["AlertRecord"];
      };
    };
    AlertReopenedEvent: {
      /** @constant */
      type: "alert.reopened";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** AlertEventData */
      data: {
        /** @description the alert, as GET answers it */
        alert: components["schemas"]["AlertRecord"];
      };
    };
    TicketCreatedEvent: {
      /** @constant */
      type: "ticket.created";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** @description the ticket, as GET answers it */
        ticket: components["schemas"]["TicketRecord"];
      };
    };
    TicketUpdatedEvent: {
      /** @constant */
      type: "ticket.updated";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** @description the ticket, as GET answers it */
        ticket: components["schemas"]["TicketRecord"];
        changes: {
          [key: string]: {
            from: unknown;
            to: unknown;
          };
        };
      };
    };
    TicketCommentedEvent: {
      /** @constant */
      type: "ticket.commented";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** @description the ticket, as GET answers it */
        ticket: components["schemas"]["TicketRecord"];
        /** @description the new comment */
        comment: components["schemas"]["TicketComment"];
      };
    };
    EquipmentCreatedEvent: {
      /** @constant */
      type: "equipment.created";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** @description the record, as GET answers it */
        equipment: components["schemas"]["EquipmentRecord"];
      };
    };
    EquipmentUpdatedEvent: {
      /** @constant */
      type: "equipment.updated";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** @description the record, as GET answers it */
        equipment: components["schemas"]["EquipmentRecord"];
        changes: {
          [key: string]: {
            from: unknown;
            to: unknown;
          };
        };
      };
    };
    EquipmentRetiredEvent: {
      /** @constant */
      type: "equipment.retired";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** @description the record, as GET answers it */
        equipment: components["schemas"]["EquipmentRecord"];
      };
    };
    ProjectCreatedEvent: {
      /** @constant */
      type: "project.created";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** ProjectEventData */
      data: {
        project: {
          /** Format: uuid */
          id: string;
          name: string;
          description: string;
          /** Format: date-time */
          createdAt: string;
          /** Format: date-time */
          updatedAt: string;
        };
      };
    };
    ProjectUpdatedEvent: {
      /** @constant */
      type: "project.updated";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** ProjectEventData */
      data: {
        project: {
          /** Format: uuid */
          id: string;
          name: string;
          description: string;
          /** Format: date-time */
          createdAt: string;
          /** Format: date-time */
          updatedAt: string;
        };
      };
    };
    ProjectDeletedEvent: {
      /** @constant */
      type: "project.deleted";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      /** ProjectEventData */
      data: {
        project: {
          /** Format: uuid */
          id: string;
          name: string;
          description: string;
          /** Format: date-time */
          createdAt: string;
          /** Format: date-time */
          updatedAt: string;
        };
      };
    };
    WebhookDisabledEvent: {
      /** @constant */
      type: "webhook.disabled";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** Format: uuid */
        webhookId: string;
        url: string;
        reason: string;
        failingSince: string | null;
      };
    };
    ApiKeyRotatedEvent: {
      /** @constant */
      type: "api_key.rotated";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** ApiKeyEventKey */
        apiKey: {
          /** Format: uuid */
          id: string;
          name: string;
          prefix: string;
          /** Format: uuid */
          userId: string;
          scopes: string[];
          expiresAt: string | null;
        };
        /** PreviousKey */
        previousKey: {
          /** Format: uuid */
          id: string;
          prefix: string;
          graceEndsAt: string | null;
        };
      };
    };
    ApiKeyExpiringEvent: {
      /** @constant */
      type: "api_key.expiring";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** ApiKeyEventKey */
        apiKey: {
          /** Format: uuid */
          id: string;
          name: string;
          prefix: string;
          /** Format: uuid */
          userId: string;
          scopes: string[];
          expiresAt: string | null;
        };
        daysLeft: 30 | 7 | 1;
      };
    };
    ApiKeyExpiredEvent: {
      /** @constant */
      type: "api_key.expired";
      /**
       * Format: date-time
       * @description when the change happened
       */
      timestamp: string;
      data: {
        /** ApiKeyEventKey */
        apiKey: {
          /** Format: uuid */
          id: string;
          name: string;
          prefix: string;
          /** Format: uuid */
          userId: string;
          scopes: string[];
          expiresAt: string | null;
        };
      };
    };
    /** @description The body of a webhook delivery: narrow on `type`. */
    WebhookEvent:
      | components["schemas"]["AlertCreatedEvent"]
      | components["schemas"]["AlertAcknowledgedEvent"]
      | components["schemas"]["AlertResolvedEvent"]
      | components["schemas"]["AlertReopenedEvent"]
      | components["schemas"]["TicketCreatedEvent"]
      | components["schemas"]["TicketUpdatedEvent"]
      | components["schemas"]["TicketCommentedEvent"]
      | components["schemas"]["EquipmentCreatedEvent"]
      | components["schemas"]["EquipmentUpdatedEvent"]
      | components["schemas"]["EquipmentRetiredEvent"]
      | components["schemas"]["ProjectCreatedEvent"]
      | components["schemas"]["ProjectUpdatedEvent"]
      | components["schemas"]["ProjectDeletedEvent"]
      | components["schemas"]["WebhookDisabledEvent"]
      | components["schemas"]["ApiKeyRotatedEvent"]
      | components["schemas"]["ApiKeyExpiringEvent"]
      | components["schemas"]["ApiKeyExpiredEvent"];
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description the request's id (yours if you sent a valid one); logs carry it too */
    "X-Request-Id": string;
    /** @description RFC 8288 links of a list page: rel="next" (by cursor, absent on the last page), rel="prev" (absent on the first) and rel="first", keeping the filters and limit */
    Link: string;
    /** @description size of the bucket closest to exhaustion */
    "X-RateLimit-Limit": number;
    /** @description requests left in that bucket */
    "X-RateLimit-Remaining": number;
    /** @description seconds until that bucket is full again */
    "X-RateLimit-Reset": number;
    /** @description IETF draft-11 field for that bucket, e.g. `"ip";r=42;t=18` */
    RateLimit: string;
    /** @description IETF draft-11 policies, e.g. `"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1` */
    "RateLimit-Policy": string;
    /** @description whole seconds to wait before retrying */
    "Retry-After": number;
    /** @description the organization's daily quota (sliding 24 h); `unlimited` on an unlimited plan */
    "X-Quota-Limit": string;
    /** @description requests counted in the last 24 h */
    "X-Quota-Used": number;
    /** @description requests left in the daily quota; `unlimited` on an unlimited plan */
    "X-Quota-Remaining": string;
    /** @description the record's version, e.g. `"3"`: send it back as `If-Match` to change only that version */
    ETag: string;
    /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key */
    "Idempotent-Replayed": "true";
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getWhoami: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Whoami"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Health"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listEquipmentUnits: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["EquipmentUnitList"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listGroups: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["GroupList"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listUsers: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["UserList"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listAgentReleases: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
        platform?: "windows" | "macos" | "linux" | "ios" | "android" | "other";
        channel?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AgentReleaseList"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  ingestAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | components["schemas"]["IngestAlert"]
          | components["schemas"]["IngestBatch"];
      };
    };
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["IngestResult"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description IP not allowed: the caller's address is in no ingest source */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listAlerts: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
        status?: "open" | "acknowledged" | "resolved";
        severity?: "info" | "warning" | "critical";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AlertList"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AlertRecord"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  acknowledgeAlert: {
    parameters: {
      query?: never;
      header?: {
        "if-match"?: string;
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AlertMove"];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AlertRecord"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Invalid status transition: <from> → <to>`, or an Idempotency-Key conflict */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Version mismatch`: If-Match names another version; nothing changed */
      412: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  resolveAlert: {
    parameters: {
      query?: never;
      header?: {
        "if-match"?: string;
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AlertMove"];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AlertRecord"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Invalid status transition: <from> → <to>`, or an Idempotency-Key conflict */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Version mismatch`: If-Match names another version; nothing changed */
      412: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  reopenAlert: {
    parameters: {
      query?: never;
      header?: {
        "if-match"?: string;
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AlertMove"];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AlertRecord"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Invalid status transition: <from> → <to>`, or an Idempotency-Key conflict */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Version mismatch`: If-Match names another version; nothing changed */
      412: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listTickets: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
        status?: "open" | "in_progress" | "resolved" | "closed";
        priority?: "low" | "medium" | "high" | "critical";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["TicketPage"];
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createTicket: {
    parameters: {
      query?: never;
      header?: {
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateTicket"];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Ticket"];
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Idempotency-Key reused with a different body, or still in progress */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getTicket: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["TicketRecord"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateTicket: {
    parameters: {
      query?: never;
      header?: {
        "if-match"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["UpdateTicket"];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["TicketRecord"];
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Invalid status transition: <from> → <to>`, or an Idempotency-Key conflict */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Version mismatch`: If-Match names another version; nothing changed */
      412: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listTicketComments: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["TicketCommentList"];
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  addTicketComment: {
    parameters: {
      query?: never;
      header?: {
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AddTicketComment"];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["TicketComment"];
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Idempotency-Key reused with a different body, or still in progress */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listEquipment: {
    parameters: {
      query?: {
        limit?: number;
        offset?: number;
        after?: string;
        status?: "pending" | "online" | "offline" | "retired";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["EquipmentPage"];
        };
      };
      /** @description Validation failed: limit, offset or status */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  bulkCreateEquipment: {
    parameters: {
      query?: never;
      header?: {
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["BulkCreateEquipment"];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["BulkCreateResult"];
        };
      };
      /** @description Validation failed: the body's shape, more than 100 items, or no item valid (details name each item's field, e.g. ["items","2","unitId"]) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Idempotency-Key reused with a different body, or still in progress */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getEquipment: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["EquipmentRecord"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateEquipment: {
    parameters: {
      query?: never;
      header?: {
        "if-match"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["UpdateEquipment"];
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["EquipmentRecord"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Equipment is retired`: a retired record no longer changes */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Version mismatch`: If-Match names another version; nothing changed */
      412: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  retireEquipment: {
    parameters: {
      query?: never;
      header?: {
        "if-match"?: string;
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["EquipmentRecord"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such record in your organization (or not one you can see) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Invalid status transition: <from> → <to>`, or an Idempotency-Key conflict */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Version mismatch`: If-Match names another version; nothing changed */
      412: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getInstallInfo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["InstallInfo"];
        };
      };
      /** @description `HTTPS required` */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Install link not found */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Install link expired, or an invitation link already used */
      410: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Unexpected error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listProjects: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        after?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ProjectList"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createProject: {
    parameters: {
      query?: never;
      header?: {
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 1 to 100 characters; trimmed */
          name: string;
          /** @description up to 1000 characters */
          description?: string;
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ProjectCreated"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Idempotency-Key reused with a different body */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getProject: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Project"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such project in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteProject: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ProjectDeleted"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such project in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateProject: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 1 to 100 characters; trimmed */
          name?: string;
          /** @description up to 1000 characters */
          description?: string;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Project"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such project in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        after?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookList"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: {
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description https URL of a public receiver */
          url: string;
          /** @description one or more of alert.created, alert.acknowledged, alert.resolved, alert.reopened, ticket.created, ticket.updated, ticket.commented, equipment.created, equipment.updated, equipment.retired, project.created, project.updated, project.deleted, webhook.disabled, api_key.rotated, api_key.expiring, api_key.expired */
          events: string[];
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["CreatedWebhook"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description 20 webhooks already exist, or Idempotency-Key reused with a different body / still in progress */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Webhook"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookDeleted"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          url?: string;
          /** @description one or more of alert.created, alert.acknowledged, alert.resolved, alert.reopened, ticket.created, ticket.updated, ticket.commented, equipment.created, equipment.updated, equipment.retired, project.created, project.updated, project.deleted, webhook.disabled, api_key.rotated, api_key.expiring, api_key.expired */
          events?: string[];
          /** @description true re-enables a disabled webhook */
          active?: boolean;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Webhook"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description hours the previous secret still signs (default 24) */
          gracePeriodHours?: number;
        };
      };
    };
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RotatedWebhookSecret"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `Request body too large (limit 1 MiB)` */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The body is not JSON: send it with `Content-Type: application/json` */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        page?: number;
        limit?: number;
        after?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookDeliveryList"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  retryWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WebhookDelivery"];
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description the webhook is disabled, or an attempt is in flight */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listChanges: {
    parameters: {
      query?: {
        types?: string;
        since?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ChangePage"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Sync token expired: start again without `since` */
      410: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listAuditLog: {
    parameters: {
      query?: {
        keyId?: string;
        userId?: string;
        route?: string;
        statusClass?: string;
        ip?: string;
        from?: string;
        to?: string;
        after?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          Link: components["headers"]["Link"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["AuditLogPage"];
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  exportAuditLog: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description NDJSON: one AuditEntry per line, oldest first */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationError"];
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining. */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          "X-Quota-Limit": components["headers"]["X-Quota-Limit"];
          "X-Quota-Used": components["headers"]["X-Quota-Used"];
          "X-Quota-Remaining": components["headers"]["X-Quota-Remaining"];
          "Retry-After": components["headers"]["Retry-After"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RateLimited"];
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
          "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
          "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
          RateLimit: components["headers"]["RateLimit"];
          "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
}
