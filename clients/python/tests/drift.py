"""What the model-drift test compares: each route's TypedDicts, and schema walking helpers."""

from typing import Any, Dict, Optional, Set, Union, get_args, get_origin

from orgit import models


def inline_refs(node: Any, document: Dict[str, Any]) -> Any:
    """The document's local `$ref`s replaced by what they point to (named component schemas)."""
    if isinstance(node, list):
        return [inline_refs(item, document) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
        target: Any = document
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        return inline_refs({**target, **siblings}, document)
    return {key: inline_refs(value, document) for key, value in node.items()}


def object_schema(schema: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The object schema inside an array, a nullable anyOf, or the schema itself."""
    if "properties" in schema:
        return schema
    if schema.get("type") == "array":
        return object_schema(schema["items"])
    for option in schema.get("anyOf", []):
        found = object_schema(option)
        if found:
            return found
    return None


def enum_values(schema: Dict[str, Any]) -> Set[str]:
    values = set(schema.get("enum", []))
    for option in schema.get("anyOf", []):
        values |= {option["const"]} if "const" in option else enum_values(option)
    return values


def unwrap(hint: Any) -> Any:
    """List[X] and Optional[X] to X."""
    while get_origin(hint) in (list, Union):
        hint = next(arg for arg in get_args(hint) if arg is not type(None))
    return hint


RESPONSES = [
    ("get", "/api/v1/whoami", "200", models.Whoami),
    ("get", "/api/v1/health", "200", models.Health),
    ("get", "/api/v1/equipments", "200", models.EquipmentList),
    ("post", "/api/v1/equipments/bulk-create", "201", models.BulkCreateResult),
    ("get", "/install/{token}", "200", models.InstallLink),
    ("get", "/api/v1/equipment-units", "200", models.EquipmentUnitList),
    ("get", "/api/v1/groups", "200", models.GroupList),
    ("get", "/api/v1/users", "200", models.UserList),
    ("get", "/api/v1/agent-releases", "200", models.AgentReleaseList),
    ("get", "/api/v1/alerts", "200", models.AlertList),
    ("post", "/api/v1/alerts/ingest", "202", models.IngestResult),
    ("get", "/api/v1/tickets", "200", models.TicketList),
    ("post", "/api/v1/tickets", "201", models.Ticket),
    ("get", "/api/v1/tickets/{id}", "200", models.TicketRecord),
    ("patch", "/api/v1/tickets/{id}", "200", models.TicketRecord),
    ("get", "/api/v1/tickets/{id}/comments", "200", models.TicketCommentList),
    ("post", "/api/v1/tickets/{id}/comments", "201", models.TicketComment),
    ("get", "/api/v1/alerts/{id}", "200", models.AlertRecord),
    ("post", "/api/v1/alerts/{id}/acknowledge", "200", models.AlertRecord),
    ("post", "/api/v1/alerts/{id}/resolve", "200", models.AlertRecord),
    ("post", "/api/v1/alerts/{id}/reopen", "200", models.AlertRecord),
    ("get", "/api/v1/equipments/{id}", "200", models.EquipmentRecord),
    ("patch", "/api/v1/equipments/{id}", "200", models.EquipmentRecord),
    ("post", "/api/v1/equipments/{id}/retire", "200", models.EquipmentRecord),
    ("get", "/api/projects", "200", models.ProjectList),
    ("post", "/api/projects", "201", models.CreatedProject),
    ("get", "/api/projects/{id}", "200", models.Project),
    ("patch", "/api/projects/{id}", "200", models.Project),
    ("delete", "/api/projects/{id}", "200", models.Deleted),
    ("get", "/api/webhooks", "200", models.WebhookList),
    ("post", "/api/webhooks", "201", models.CreatedWebhook),
    ("get", "/api/webhooks/{id}", "200", models.Webhook),
    ("patch", "/api/webhooks/{id}", "200", models.Webhook),
    ("delete", "/api/webhooks/{id}", "200", models.Deleted),
    ("get", "/api/webhooks/{id}/deliveries", "200", models.WebhookDeliveryList),
    ("post", "/api/webhooks/{id}/deliveries/{deliveryId}/retry", "202", models.WebhookDelivery),
    ("get", "/api/v1/changes", "200", models.ChangeList),

    ("get", "/api/v1/audit-log", "200", models.AuditLogPage),
    ("get", "/api/v1/audit-log/export", "200", models.AuditEntry),
    ("post", "/api/webhooks/{id}/rotate-secret", "200", models.RotatedWebhookSecret),
]
REQUESTS = [
    ("post", "/api/v1/equipments/bulk-create", [models.BulkCreateRequest]),
    ("post", "/api/v1/alerts/ingest", [models.IngestAlert, models.IngestBatch]),
    ("post", "/api/v1/tickets", [models.CreateTicketRequest]),
    ("patch", "/api/v1/tickets/{id}", [models.UpdateTicketRequest]),
    ("post", "/api/v1/tickets/{id}/comments", [models.AddTicketCommentRequest]),
    ("post", "/api/v1/alerts/{id}/acknowledge", [models.AlertMoveRequest]),
    ("post", "/api/v1/alerts/{id}/resolve", [models.AlertMoveRequest]),
    ("post", "/api/v1/alerts/{id}/reopen", [models.AlertMoveRequest]),
    ("patch", "/api/v1/equipments/{id}", [models.UpdateEquipmentRequest]),
    ("post", "/api/projects", [models.CreateProjectRequest]),
    ("patch", "/api/projects/{id}", [models.UpdateProjectRequest]),
    ("post", "/api/webhooks", [models.CreateWebhookRequest]),
    ("patch", "/api/webhooks/{id}", [models.UpdateWebhookRequest]),
    ("post", "/api/webhooks/{id}/rotate-secret", [models.RotateWebhookSecretRequest]),
]
