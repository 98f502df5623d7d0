"""Interface B resources (``/api``): projects and webhook subscriptions with their deliveries."""

from typing import Iterator, Optional, Sequence, cast

from . import models as m
from ._resource import Resource, given, quote_id


class Projects(Resource):
    _path = "/api/projects"

    def list(self, *, page: Optional[int] = None, limit: Optional[int] = None,
             after: Optional[str] = None) -> m.ProjectList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(m.ProjectList, self._get(self._path, page=page, limit=limit, after=after))

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.ProjectSummary]:
        return self._numbered_pages(self._path, limit)

    def paginate(self, *, limit: int = 100) -> Iterator[m.ProjectSummary]:
        """Every project by cursor pages (``Link: rel="next"``)."""
        return self._cursor_pages(self._path, limit)

    def create(self, *, name: str, description: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> m.CreatedProject:
        return cast(
            m.CreatedProject,
            self._create(self._path, given(name=name, description=description), idempotency_key),
        )

    def get(self, project_id: str) -> m.Project:
        return cast(m.Project, self._get(f"{self._path}/{quote_id(project_id)}"))

    def update(self, project_id: str, *, name: Optional[str] = None,
               description: Optional[str] = None) -> m.Project:
        body = given(name=name, description=description)
        return cast(
            m.Project,
            self._http.request("PATCH", f"{self._path}/{quote_id(project_id)}", body=body),
        )

    def delete(self, project_id: str) -> m.Deleted:
        return cast(m.Deleted, self._http.request("DELETE", f"{self._path}/{quote_id(project_id)}"))


class Webhooks(Resource):
    _path = "/api/webhooks"

    def list(self, *, page: Optional[int] = None, limit: Optional[int] = None,
             after: Optional[str] = None) -> m.WebhookList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(m.WebhookList, self._get(self._path, page=page, limit=limit, after=after))

    def list_all(self, *, limit: Optional[int] = None) -> Iterator[m.Webhook]:
        return self._numbered_pages(self._path, limit)

    def paginate(self, *, limit: int = 100) -> Iterator[m.Webhook]:
        """Every webhook by cursor pages (``Link: rel="next"``)."""
        return self._cursor_pages(self._path, limit)

    def create(self, *, url: str, events: Sequence[m.WebhookEventType],
               idempotency_key: Optional[str] = None) -> m.CreatedWebhook:
        """The answer holds the ``whsec_`` signing secret: the only time it is shown."""
        return cast(
            m.CreatedWebhook,
            self._create(self._path, {"url": url, "events": list(events)}, idempotency_key),
        )

    def get(self, webhook_id: str) -> m.Webhook:
        return cast(m.Webhook, self._get(f"{self._path}/{quote_id(webhook_id)}"))

    def update(
        self,
        webhook_id: str,
        *,
        url: Optional[str] = None,
        events: Optional[Sequence[m.WebhookEventType]] = None,
        active: Optional[bool] = None,
    ) -> m.Webhook:
        body = given(url=url, events=None if events is None else list(events), active=active)
        return cast(
            m.Webhook,
            self._http.request("PATCH", f"{self._path}/{quote_id(webhook_id)}", body=body),
        )

    def delete(self, webhook_id: str) -> m.Deleted:
        return cast(m.Deleted, self._http.request("DELETE", f"{self._path}/{quote_id(webhook_id)}"))

    def list_deliveries(self, webhook_id: str, *, page: Optional[int] = None,
                        limit: Optional[int] = None,
                        after: Optional[str] = None) -> m.WebhookDeliveryList:
        """One page; ``after=orgit.last_response.next_cursor`` for the next one by cursor."""
        return cast(
            m.WebhookDeliveryList,
            self._get(f"{self._path}/{quote_id(webhook_id)}/deliveries", page=page, limit=limit,
                      after=after),
        )

    def list_all_deliveries(self, webhook_id: str, *,
                            limit: Optional[int] = None) -> Iterator[m.WebhookDelivery]:
        return self._numbered_pages(f"{self._path}/{quote_id(webhook_id)}/deliveries", limit)

    def rotate_secret(self, webhook_id: str, *,
                      grace_period_hours: Optional[int] = None) -> m.RotatedWebhookSecret:
        """A new ``whsec_`` secret, shown only here; during the grace (24 h by default, 0 to
        168) deliveries carry a signature with both the new and the previous secret."""
        body = given(gracePeriodHours=grace_period_hours)
        return cast(
            m.RotatedWebhookSecret,
            self._http.request("POST", f"{self._path}/{quote_id(webhook_id)}/rotate-secret",
                               body=body),
        )

    def retry_delivery(self, webhook_id: str, delivery_id: str) -> m.WebhookDelivery:
        """Queues one more attempt now (202). Not retried on 5xx: it takes no idempotency key."""
        path = f"{self._path}/{quote_id(webhook_id)}/deliveries/{quote_id(delivery_id)}/retry"
        return cast(m.WebhookDelivery, self._http.request("POST", path))
