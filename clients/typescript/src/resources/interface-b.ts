import { type Http, withQuery } from "../http.js";
import type {
  CreatedProject,
  CreatedWebhook,
  Deleted,
  Project,
  ProjectCreateInput,
  ProjectList,
  ProjectListQuery,
  ProjectUpdateInput,
  RotatedWebhookSecret,
  Webhook,
  WebhookCreateInput,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryListQuery,
  WebhookList,
  WebhookListQuery,
  WebhookRotateSecretInput,
  WebhookUpdateInput,
} from "../models.js";
import { byId, paginatePages } from "../pagination.js";
import { PageListResource, segment } from "./base.js";
import type { IdempotentOptions } from "./interface-a.js";

/** `/api/projects`: list, create, get, update, delete. */
export class ProjectsResource extends PageListResource<ProjectList, ProjectListQuery> {
  constructor(http: Http) {
    super(http, "/api/projects");
  }

  create(input: ProjectCreateInput, options: IdempotentOptions = {}): Promise<CreatedProject> {
    return this.http.request({
      method: "POST",
      path: this.path,
      body: input,
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
    });
  }

  get(id: string): Promise<Project> {
    return this.http.request({ method: "GET", path: `${this.path}/${segment(id)}` });
  }

  /** `name`, `description` or both; answers the whole project. Not retried on 5xx. */
  update(id: string, input: ProjectUpdateInput): Promise<Project> {
    return this.http.request({ method: "PATCH", path: `${this.path}/${segment(id)}`, body: input });
  }

  delete(id: string): Promise<Deleted> {
    return this.http.request({ method: "DELETE", path: `${this.path}/${segment(id)}` });
  }
}

/** `/api/webhooks`: subscriptions and their delivery log. */
export class WebhooksResource extends PageListResource<WebhookList, WebhookListQuery> {
  constructor(http: Http) {
    super(http, "/api/webhooks");
  }

  /** Answers the subscription with its `whsec_…` secret, shown only here. */
  create(input: WebhookCreateInput, options: IdempotentOptions = {}): Promise<CreatedWebhook> {
    return this.http.request({
      method: "POST",
      path: this.path,
      body: input,
      idempotent: true,
      idempotencyKey: options.idempotencyKey,
    });
  }

  get(id: string): Promise<Webhook> {
    return this.http.request({ method: "GET", path: `${this.path}/${segment(id)}` });
  }

  /** `url`, `events`, `active` (true re-enables a disabled one). Not retried on 5xx. */
  update(id: string, input: WebhookUpdateInput): Promise<Webhook> {
    return this.http.request({ method: "PATCH", path: `${this.path}/${segment(id)}`, body: input });
  }

  delete(id: string): Promise<Deleted> {
    return this.http.request({ method: "DELETE", path: `${this.path}/${segment(id)}` });
  }

  /** One page of the delivery log, newest first. */
  listDeliveries(id: string, query: WebhookDeliveryListQuery = {}): Promise<WebhookDeliveryList> {
    const path = withQuery(`${this.path}/${segment(id)}/deliveries`, query);
    return this.http.request({ method: "GET", path });
  }

  /** Every delivery of the subscription, page after page; `limit` is the page size. */
  listAllDeliveries(
    id: string,
    query: Omit<WebhookDeliveryListQuery, "page"> = {},
  ): AsyncGenerator<WebhookDelivery> {
    return paginatePages(
      (page, limit) => this.listDeliveries(id, { ...query, page, limit }),
      byId,
      query.limit,
    );
  }

  /**
   * A new signing secret, shown only in this answer. For `gracePeriodHours` (24 by default, 0 to
   * 168) deliveries are signed with both the new and the previous secret.
   */
  rotateSecret(id: string, input: WebhookRotateSecretInput = {}): Promise<RotatedWebhookSecret> {
    const path = `${this.path}/${segment(id)}/rotate-secret`;
    return this.http.request({ method: "POST", path, body: input });
  }

  /** Queues one more attempt now (202); 409 while one is in flight or the webhook is disabled. */
  retryDelivery(id: string, deliveryId: string): Promise<WebhookDelivery> {
    const path = `${this.path}/${segment(id)}/deliveries/${segment(deliveryId)}/retry`;
    return this.http.request({ method: "POST", path });
  }
}
