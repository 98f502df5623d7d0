// generated — do not edit, run `npx bun run clients/typescript/scripts/generate-types.ts`
// Source: the service's OpenAPI document (GET /swagger/json), application/json content only.

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
    get: operations["getApiV1Whoami"];
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
    get: operations["getApiV1Health"];
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
    get: operations["getApiV1Equipment-units"];
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
    get: operations["getApiV1Groups"];
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
    get: operations["getApiV1Users"];
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
     * @description Any key with API access; no scope needed (the seed lists none). Releases are global, the same for every organization. Filters `platform` and `channel`; newest release first; `limit` 1 to 200 (default 50), `offset` ≥ 0.
     */
    get: operations["getApiV1Agent-releases"];
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
    post: operations["postApiV1AlertsIngest"];
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
    get: operations["getApiV1Alerts"];
    put?: never;
    post?: never;
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
    get: operations["getApiV1Tickets"];
    put?: never;
    /**
     * Create a ticket
     * @description Scope tickets:write. Created open, on behalf of the key owner; priority defaults to medium. An equipmentId must be equipment of your organization.
     */
    post: operations["postApiV1Tickets"];
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
    get: operations["getApiV1Equipments"];
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
    post: operations["postApiV1EquipmentsBulk-create"];
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
    get: operations["getInstallByToken"];
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
    get: operations["getApiProjects"];
    put?: never;
    /**
     * Create a project
     * @description Scope projects:write and permission projects.manage. `description` defaults to "". Emits project.created. Send `Idempotency-Key` to make retries safe.
     */
    post: operations["postApiProjects"];
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
    get: operations["getApiProjectsById"];
    put?: never;
    post?: never;
    /**
     * Delete a project
     * @description Scope projects:write and permission projects.manage. Emits project.deleted with the project as it was.
     */
    delete: operations["deleteApiProjectsById"];
    options?: never;
    head?: never;
    /**
     * Update a project
     * @description Scope projects:write and permission projects.manage. Give name, description or both; answers the whole project. Emits project.updated.
     */
    patch: operations["patchApiProjectsById"];
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
    get: operations["getApiWebhooks"];
    put?: never;
    /**
     * Subscribe a URL to project events
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Answers the whsec_ signing secret once. The URL must be https and resolve to public addresses (unless ALLOW_PRIVATE_WEBHOOK_URLS). At most 20 per organization.
     */
    post: operations["postApiWebhooks"];
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
    get: operations["getApiWebhooksById"];
    put?: never;
    post?: never;
    /**
     * Delete a webhook
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Its pending deliveries are dropped.
     */
    delete: operations["deleteApiWebhooksById"];
    options?: never;
    head?: never;
    /**
     * Change a webhook
     * @description Scope webhooks:write and permission webhooks.manage; any plan. Give url, events, active or several.
     */
    patch: operations["patchApiWebhooksById"];
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
    get: operations["getApiWebhooksByIdDeliveries"];
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
    post: operations["postApiWebhooksByIdDeliveriesByDeliveryIdRetry"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getApiV1Whoami: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** Whoami */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
              expiresAt: (string | null) | null;
            };
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiV1Health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** Health */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            status: "ok";
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  "getApiV1Equipment-units": {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** EquipmentUnitList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              parentId: (string | null) | null;
              /** Format: date-time */
              createdAt: string;
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiV1Groups: {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** GroupList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              description: (string | null) | null;
              /** @description members still in the organization */
              memberCount: number;
              /** Format: date-time */
              createdAt: string;
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiV1Users: {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** UserList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
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
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  "getApiV1Agent-releases": {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
        /** @description one of windows, macos, linux, ios, android, other */
        platform?: "windows" | "macos" | "linux" | "ios" | "android" | "other";
        /** @description e.g. stable or beta; an unknown channel lists nothing */
        channel?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** AgentReleaseList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
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
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  postApiV1AlertsIngest: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json":
          | ({
              /** @description required, 1 to 100 characters */
              source: string;
              /** @description required, 1 to 200 characters */
              title: string;
              /** @description info, warning or critical; default warning */
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
            })
          | {
              alerts: ({
                /** @description required, 1 to 100 characters */
                source: string;
                /** @description required, 1 to 200 characters */
                title: string;
                /** @description info, warning or critical; default warning */
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
              })[];
            };
      };
    };
    responses: {
      /** IngestResult */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description alerts in the request */
            received: number;
            /** @description alerts stored now */
            created: number;
            /** @description alerts whose source + externalId was already known */
            duplicates: number;
            /** @description one per received alert, in order; a duplicate's is the id of the alert it repeats */
            ids: string[];
          };
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description IP not allowed: the caller's address is in no ingest source */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiV1Alerts: {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
        /** @description one of open, acknowledged, resolved */
        status?: "open" | "acknowledged" | "resolved";
        /** @description one of info, warning, critical */
        severity?: "info" | "warning" | "critical";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** AlertList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /** Format: uuid */
              id: string;
              source: string;
              externalId: (string | null) | null;
              /** @description one of info, warning, critical */
              severity: "info" | "warning" | "critical";
              /** @description one of open, acknowledged, resolved */
              status: "open" | "acknowledged" | "resolved";
              title: string;
              message: (string | null) | null;
              equipmentId: (string | null) | null;
              occurredAt: (string | null) | null;
              /** Format: date-time */
              receivedAt: string;
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed, with details naming each field */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiV1Tickets: {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
        /** @description one of open, in_progress, resolved, closed */
        status?: "open" | "in_progress" | "resolved" | "closed";
        /** @description one of low, medium, high, critical */
        priority?: "low" | "medium" | "high" | "critical";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** TicketPage */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /** Format: uuid */
              id: string;
              title: string;
              /** @description one of open, in_progress, resolved, closed */
              status: "open" | "in_progress" | "resolved" | "closed";
              /** @description one of low, medium, high, critical */
              priority: "low" | "medium" | "high" | "critical";
              equipment_id: (string | null) | null;
              /**
               * Format: uuid
               * @description the key owner's user id
               */
              created_by: string;
              /** Format: date-time */
              created_at: string;
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  postApiV1Tickets: {
    parameters: {
      query?: never;
      header?: {
        /** @description replays the first response for 24 h (same body) */
        "idempotency-key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 5 to 200 characters */
          title: string;
          /** @description 10 to 5000 characters */
          description: string;
          /** @description default medium */
          priority?: "low" | "medium" | "high" | "critical";
          /**
           * Format: uuid
           * @description equipment of your organization
           */
          equipmentId?: string;
        };
      };
    };
    responses: {
      /** Ticket */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** Format: uuid */
            id: string;
            title: string;
            /** @description one of open, in_progress, resolved, closed */
            status: "open" | "in_progress" | "resolved" | "closed";
            /** @description one of low, medium, high, critical */
            priority: "low" | "medium" | "high" | "critical";
            equipment_id: (string | null) | null;
            /**
             * Format: uuid
             * @description the key owner's user id
             */
            created_by: string;
            /** Format: date-time */
            created_at: string;
          };
        };
      };
      /** @description Validation failed (details name each field), or malformed JSON */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description Idempotency-Key reused with a different body, or still in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiV1Equipments: {
    parameters: {
      query?: {
        /** @description page size, 1 to 200 (default 50); outside → 400 */
        limit?: string | number;
        /** @description items to skip, ≥ 0 (default 0) */
        offset?: string | number;
        /** @description one of pending, online, offline, retired */
        status?: "pending" | "online" | "offline" | "retired";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** EquipmentPage */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              /** @description one of workstation, laptop, server, virtual_machine, mobile, network_device, printer, other */
              type:
                | "workstation"
                | "laptop"
                | "server"
                | "virtual_machine"
                | "mobile"
                | "network_device"
                | "printer"
                | "other";
              platform:
                | (("windows" | "macos" | "linux" | "ios" | "android" | "other") | null)
                | null;
              location: (string | null) | null;
              unitId: (string | null) | null;
              managedBy: (string | null) | null;
              assignedUserId: (string | null) | null;
              /** @description new records are pending */
              status: "pending" | "online" | "offline" | "retired";
              /** Format: date-time */
              createdAt: string;
            }[];
            pagination: {
              /** @description total number of items matching the filters */
              total: number;
              /** @description page size applied */
              limit: number;
              /** @description number of items skipped */
              offset: number;
            };
          };
        };
      };
      /** @description Validation failed: limit, offset or status */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  "postApiV1EquipmentsBulk-create": {
    parameters: {
      query?: never;
      header?: {
        /** @description replays the first response for 24 h (same body) */
        "idempotency-key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 1 to 100 records; each is checked on its own */
          items: {
            /** @description 1 to 200 characters */
            name: string;
            /** @description one of workstation, laptop, server, virtual_machine, mobile, network_device, printer, other */
            type: string;
            platform?: (string | null) | null;
            location?: (string | null) | null;
            unitId?: (string | null) | null;
            managedBy?: (string | null) | null;
            assignToUserId?: (string | null) | null;
          }[];
          /** @description bulk (default): link reusable 7 days; invitation: one use, 30 days */
          tokenKind?: "bulk" | "invitation";
        };
      };
    };
    responses: {
      /** BulkCreateResult */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
              name: (string | null) | null;
              /** @description field and problem, e.g. `unitId: No unit with this id…` */
              error: string;
            }[];
          };
        };
      };
      /** @description Validation failed: the body's shape, more than 100 items, or no item valid (details name each item's field, e.g. ["items","2","unitId"]) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description Idempotency-Key reused with a different body, or still in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getInstallByToken: {
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
      /** InstallInfo */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** Format: uuid */
            equipmentId: string;
            equipmentName: string;
            platform: (string | null) | null;
            /** @description one of bulk, invitation */
            tokenKind: "bulk" | "invitation";
            /**
             * Format: date-time
             * @description when the link stops working
             */
            expiresAt: string;
            agentRelease:
              | ({
                  id: string;
                  version: string;
                  platform: string;
                  architecture: string;
                  channel: string;
                  /** Format: date-time */
                  releasedAt: string;
                  downloadUrl: string;
                  sha256: string;
                } | null)
              | null;
          };
        };
      };
      /** @description Install link not found */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description Install link expired, or an invitation link already used */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiProjects: {
    parameters: {
      query?: {
        /** @description 1 or more; default 1 */
        page?: string | number;
        /** @description 1 to 100; default 10 */
        limit?: string | number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** ProjectList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description newest first; id breaks ties */
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              /** Format: date-time */
              createdAt: string;
            }[];
            pagination: {
              page: number;
              limit: number;
              /** @description projects in the organization */
              total: number;
            };
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  postApiProjects: {
    parameters: {
      query?: never;
      header?: {
        /** @description same key and body within 24 h replays the first answer (1–255 ASCII) */
        "idempotency-key"?: string;
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
      /** ProjectCreated */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            /** Format: date-time */
            createdAt: string;
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description Idempotency-Key reused with a different body */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiProjectsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description project id (uuid) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** Project */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such project in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  deleteApiProjectsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description project id (uuid) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** ProjectDeleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            success: boolean;
            /** @example Project deleted */
            message: string;
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such project in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  patchApiProjectsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description project id (uuid) */
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
      /** Project */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such project in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiWebhooks: {
    parameters: {
      query?: {
        /** @description 1 or more; default 1 */
        page?: string | number;
        /** @description 1 to 100; default 10 */
        limit?: string | number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** WebhookList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description newest first */
            data: {
              /** Format: uuid */
              id: string;
              url: string;
              events: string[];
              active: boolean;
              disabledReason: (string | null) | null;
              /** Format: date-time */
              createdAt: string;
              /** Format: date-time */
              updatedAt: string;
            }[];
            pagination: {
              page: number;
              limit: number;
              total: number;
            };
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  postApiWebhooks: {
    parameters: {
      query?: never;
      header?: {
        /** @description replays the first response for 24 h (same body) */
        "idempotency-key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description https URL of a public receiver */
          url: string;
          /** @description one or more of project.created, project.updated, project.deleted */
          events: string[];
        };
      };
    };
    responses: {
      /** CreatedWebhook */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description 20 webhooks already exist, or Idempotency-Key reused with a different body / still in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiWebhooksById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description webhook id (uuid) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** Webhook */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** Format: uuid */
            id: string;
            url: string;
            events: string[];
            active: boolean;
            disabledReason: (string | null) | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  deleteApiWebhooksById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description webhook id (uuid) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** WebhookDeleted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            success: boolean;
            /** @example Webhook deleted */
            message: string;
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  patchApiWebhooksById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description webhook id (uuid) */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          url?: string;
          /** @description one or more of project.created, project.updated, project.deleted */
          events?: string[];
          /** @description true re-enables a disabled webhook */
          active?: boolean;
        };
      };
    };
    responses: {
      /** Webhook */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** Format: uuid */
            id: string;
            url: string;
            events: string[];
            active: boolean;
            disabledReason: (string | null) | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  getApiWebhooksByIdDeliveries: {
    parameters: {
      query?: {
        /** @description 1 or more; default 1 */
        page?: string | number;
        /** @description 1 to 100; default 10 */
        limit?: string | number;
      };
      header?: never;
      path: {
        /** @description webhook id (uuid) */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** WebhookDeliveryList */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description newest first */
            data: {
              /** Format: uuid */
              id: string;
              /** @description the webhook-id header, the same on every retry */
              webhookId: string;
              /** Format: uuid */
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
              lastStatusCode: (number | null) | null;
              lastError: (string | null) | null;
              lastAttemptAt: (string | null) | null;
              /** @description null unless pending */
              nextAttemptAt: (string | null) | null;
              deliveredAt: (string | null) | null;
              /** Format: date-time */
              createdAt: string;
            }[];
            pagination: {
              page: number;
              limit: number;
              total: number;
            };
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
  postApiWebhooksByIdDeliveriesByDeliveryIdRetry: {
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
      /** WebhookDelivery */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** Format: uuid */
            id: string;
            /** @description the webhook-id header, the same on every retry */
            webhookId: string;
            /** Format: uuid */
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
            lastStatusCode: (number | null) | null;
            lastError: (string | null) | null;
            lastAttemptAt: (string | null) | null;
            /** @description null unless pending */
            nextAttemptAt: (string | null) | null;
            deliveredAt: (string | null) | null;
            /** Format: date-time */
            createdAt: string;
          };
        };
      };
      /** @description Validation failed, with details */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description key missing, invalid, expired, revoked, or owner left the organization */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description missing scope or permission, plan without API access, or HTTPS required */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description no such webhook in the caller's organization (malformed ids included) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /** @description the webhook is disabled, or an attempt is in flight */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
      /**
       * RateLimited
       * @description With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
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
        };
      };
      /** @description unexpected server error; the cause is logged with the request id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @description what went wrong, in plain words */
            error: string;
            details?: {
              /** @description names the field, e.g. ["items", "0", "name"] */
              path: string[];
              message: string;
            }[];
          };
        };
      };
    };
  };
}
