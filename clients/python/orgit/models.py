"""Typed request and response bodies. Keys are exactly the service's JSON field names (see
``GET /swagger/json``): tickets are snake_case, everything else camelCase. Optional keys sit
in a ``total=False`` class; nullable values are ``Optional``."""

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

from typing import Any, Dict, List, Literal, Optional, TypedDict

TicketStatus = Literal["open", "in_progress", "resolved", "closed"]
TicketPriority = Literal["low", "medium", "high", "critical"]
EquipmentType = Literal[
    "workstation", "laptop", "server", "virtual_machine", "mobile", "network_device", "printer",
    "other",
]
Platform = Literal["windows", "macos", "linux", "ios", "android", "other"]
EquipmentStatus = Literal["pending", "online", "offline", "retired"]
TokenKind = Literal["bulk", "invitation"]
AlertSeverity = Literal["info", "warning", "critical"]
AlertStatus = Literal["open", "acknowledged", "resolved"]
WebhookEventType = Literal[
    "alert.created", "alert.acknowledged", "alert.resolved", "alert.reopened", "ticket.created",
    "ticket.updated", "ticket.commented", "equipment.created", "equipment.updated",
    "equipment.retired", "project.created", "project.updated", "project.deleted",
    "webhook.disabled", "api_key.rotated", "api_key.expiring", "api_key.expired",
]
DeliveryStatus = Literal["pending", "sending", "delivered", "failed"]


class ErrorDetail(TypedDict):
    path: List[str]
    message: str


class _ErrorBase(TypedDict):
    error: str


class ErrorBody(_ErrorBase, total=False):
    details: List[ErrorDetail]
    retryAfter: int
    limit: int
    used: int
    window: str


# --- identity ---
class WhoamiOrganization(TypedDict):
    id: str
    name: str


class WhoamiUser(TypedDict):
    id: str
    role: str


class WhoamiApiKey(TypedDict):
    name: str
    scopes: List[str]
    expiresAt: Optional[str]


class Whoami(TypedDict):
    organization: WhoamiOrganization
    user: WhoamiUser
    apiKey: WhoamiApiKey


class Health(TypedDict):
    status: str


# --- pagination envelopes ---
class OffsetPagination(TypedDict):
    total: int
    limit: int
    offset: int


class PagePagination(TypedDict):
    page: int
    limit: int
    total: int


# --- interface A ---
class Equipment(TypedDict):
    id: str
    name: str
    type: EquipmentType
    platform: Optional[Platform]
    location: Optional[str]
    unitId: Optional[str]
    managedBy: Optional[str]
    assignedUserId: Optional[str]
    status: EquipmentStatus
    createdAt: str


class EquipmentList(TypedDict):
    data: List[Equipment]
    pagination: OffsetPagination


class _BulkCreateItemBase(TypedDict):
    name: str
    type: str


class BulkCreateItem(_BulkCreateItemBase, total=False):
    platform: Optional[str]
    location: Optional[str]
    unitId: Optional[str]
    managedBy: Optional[str]
    assignToUserId: Optional[str]


class _BulkCreateRequestBase(TypedDict):
    items: List[BulkCreateItem]


class BulkCreateRequest(_BulkCreateRequestBase, total=False):
    tokenKind: TokenKind


class BulkCreatedItem(TypedDict):
    name: str
    id: str
    installUrl: str


class BulkCreateError(TypedDict):
    index: int
    name: Optional[str]
    error: str


class BulkCreateResult(TypedDict):
    requested: int
    created: int
    failed: int
    items: List[BulkCreatedItem]
    errors: List[BulkCreateError]


class AgentRelease(TypedDict):
    id: str
    version: str
    platform: str
    architecture: str
    channel: str
    releasedAt: str
    downloadUrl: str
    sha256: str


class AgentReleaseList(TypedDict):
    data: List[AgentRelease]
    pagination: OffsetPagination


class InstallLink(TypedDict):
    equipmentId: str
    equipmentName: str
    platform: Optional[str]
    tokenKind: TokenKind
    expiresAt: str
    agentRelease: Optional[AgentRelease]


class EquipmentUnit(TypedDict):
    id: str
    name: str
    parentId: Optional[str]
    createdAt: str


class EquipmentUnitList(TypedDict):
    data: List[EquipmentUnit]
    pagination: OffsetPagination


class Group(TypedDict):
    id: str
    name: str
    description: Optional[str]
    memberCount: int
    createdAt: str


class GroupList(TypedDict):
    data: List[Group]
    pagination: OffsetPagination


class _UserProfileBase(TypedDict):
    firstName: str
    lastName: str


class UserProfile(_UserProfileBase, total=False):
    email: str  # only when the key's owner holds users.manage


class User(TypedDict):
    userId: str
    role: str
    profile: UserProfile


class UserList(TypedDict):
    data: List[User]
    pagination: OffsetPagination


class Alert(TypedDict):
    id: str
    source: str
    externalId: Optional[str]
    severity: AlertSeverity
    status: AlertStatus
    title: str
    message: Optional[str]
    equipmentId: Optional[str]
    occurredAt: Optional[str]
    receivedAt: str


class AlertList(TypedDict):
    data: List[Alert]
    pagination: OffsetPagination


class _IngestAlertBase(TypedDict):
    source: str
    title: str


class IngestAlert(_IngestAlertBase, total=False):
    severity: AlertSeverity
    message: str
    externalId: str
    equipmentId: str
    occurredAt: str


class IngestBatch(TypedDict):
    alerts: List[IngestAlert]


class IngestResult(TypedDict):
    received: int
    created: int
    duplicates: int
    ids: List[str]


class Ticket(TypedDict):
    id: str
    title: str
    status: TicketStatus
    priority: TicketPriority
    equipment_id: Optional[str]
    created_by: str
    created_at: str


class TicketList(TypedDict):
    data: List[Ticket]
    pagination: OffsetPagination


class _CreateTicketBase(TypedDict):
    title: str
    description: str


class CreateTicketRequest(_CreateTicketBase, total=False):
    priority: TicketPriority
    equipmentId: str  # the request's field is camelCase; the answer's is equipment_id


# --- interface B ---
# --- one ticket, alert or equipment record and their changes (the OpenAPI tag `extensions`) ---


class TicketRecord(TypedDict):
    """``GET /api/v1/tickets/{id}``: snake_case like every ticket, with its history fields."""

    id: str
    title: str
    description: str
    status: TicketStatus
    priority: TicketPriority
    equipment_id: Optional[str]
    assignee_id: Optional[str]
    created_by: str
    created_at: str
    updated_at: str
    version: int


class UpdateTicketRequest(TypedDict, total=False):
    title: str
    description: str
    priority: TicketPriority
    status: TicketStatus
    assigneeId: Optional[str]


class TicketComment(TypedDict):
    id: str
    ticketId: str
    authorId: str
    body: str
    createdAt: str


class TicketCommentList(TypedDict):
    data: List[TicketComment]
    pagination: OffsetPagination


class AddTicketCommentRequest(TypedDict):
    body: str


class AlertRecord(TypedDict):
    """``GET /api/v1/alerts/{id}``: the alert with who moved it, when and why."""

    id: str
    source: str
    externalId: Optional[str]
    severity: AlertSeverity
    status: AlertStatus
    title: str
    message: Optional[str]
    equipmentId: Optional[str]
    occurredAt: Optional[str]
    receivedAt: str
    acknowledgedAt: Optional[str]
    acknowledgedBy: Optional[str]
    acknowledgementNote: Optional[str]
    resolvedAt: Optional[str]
    resolvedBy: Optional[str]
    resolutionNote: Optional[str]
    updatedAt: str
    version: int


class AlertMoveRequest(TypedDict, total=False):
    note: str


class EquipmentRecord(TypedDict):
    """``GET /api/v1/equipments/{id}``: the list's fields plus ``updatedAt``, ``retiredAt``, ``version``."""

    id: str
    name: str
    type: EquipmentType
    platform: Optional[Platform]
    location: Optional[str]
    unitId: Optional[str]
    managedBy: Optional[str]
    assignedUserId: Optional[str]
    status: EquipmentStatus
    createdAt: str
    updatedAt: str
    retiredAt: Optional[str]
    version: int


class UpdateEquipmentRequest(TypedDict, total=False):
    name: str
    type: EquipmentType
    platform: Optional[Platform]
    location: Optional[str]
    unitId: Optional[str]
    managedBy: Optional[str]
    assignedUserId: Optional[str]
    status: Literal["pending", "online", "offline"]


class ProjectSummary(TypedDict):
    id: str
    name: str
    createdAt: str


class ProjectList(TypedDict):
    data: List[ProjectSummary]
    pagination: PagePagination


class CreatedProject(TypedDict):
    id: str
    name: str
    description: str
    createdAt: str


class Project(TypedDict):
    id: str
    name: str
    description: str
    createdAt: str
    updatedAt: str


class _CreateProjectBase(TypedDict):
    name: str


class CreateProjectRequest(_CreateProjectBase, total=False):
    description: str


class UpdateProjectRequest(TypedDict, total=False):
    name: str
    description: str


class Deleted(TypedDict):
    success: bool
    message: str


class Webhook(TypedDict):
    id: str
    url: str
    events: List[WebhookEventType]
    active: bool
    disabledReason: Optional[str]
    createdAt: str
    updatedAt: str


class WebhookList(TypedDict):
    data: List[Webhook]
    pagination: PagePagination


class CreatedWebhook(TypedDict):
    id: str
    url: str
    events: List[WebhookEventType]
    active: bool
    createdAt: str
    secret: str  # whsec_…: shown only in this answer


class CreateWebhookRequest(TypedDict):
    url: str
    events: List[WebhookEventType]


class UpdateWebhookRequest(TypedDict, total=False):
    url: str
    events: List[WebhookEventType]
    active: bool


class RotatedWebhookSecret(TypedDict):
    id: str
    secret: str  # the new whsec_…: shown only in this answer
    previousSecretExpiresAt: Optional[str]
    """Until then deliveries are signed with the previous secret too; None: no grace."""


class RotateWebhookSecretRequest(TypedDict, total=False):
    gracePeriodHours: int


class WebhookDelivery(TypedDict):
    id: str
    messageId: str
    """The message's `webhook-id` header value: the same on every retry."""
    webhookId: str
    """Deprecated alias of `messageId` (not the subscription: that is `subscriptionId`)."""
    subscriptionId: str
    eventId: str
    eventType: str
    status: DeliveryStatus
    attempts: int
    lastStatusCode: Optional[int]
    lastError: Optional[str]
    lastAttemptAt: Optional[str]
    nextAttemptAt: Optional[str]
    deliveredAt: Optional[str]
    createdAt: str


class WebhookDeliveryList(TypedDict):
    data: List[WebhookDelivery]
    pagination: PagePagination


# --- webhook deliveries' payload: written by `npm run events:generate` from the payload
# schemas the features declare (scripts/python-payload-types.ts); do not edit by hand ---


class AlertEventData(TypedDict):
    alert: AlertRecord


class AlertCreatedEvent(TypedDict):
    type: Literal["alert.created"]
    timestamp: str
    data: AlertEventData


class AlertAcknowledgedEvent(TypedDict):
    type: Literal["alert.acknowledged"]
    timestamp: str
    data: AlertEventData


class AlertResolvedEvent(TypedDict):
    type: Literal["alert.resolved"]
    timestamp: str
    data: AlertEventData


class AlertReopenedEvent(TypedDict):
    type: Literal["alert.reopened"]
    timestamp: str
    data: AlertEventData


class TicketCreatedEventData(TypedDict):
    ticket: TicketRecord


class TicketCreatedEvent(TypedDict):
    type: Literal["ticket.created"]
    timestamp: str
    data: TicketCreatedEventData


FieldChange = TypedDict("FieldChange", {"from": Any, "to": Any})


class TicketUpdatedEventData(TypedDict):
    ticket: TicketRecord
    changes: Dict[str, FieldChange]


class TicketUpdatedEvent(TypedDict):
    type: Literal["ticket.updated"]
    timestamp: str
    data: TicketUpdatedEventData


class TicketCommentedEventData(TypedDict):
    ticket: TicketRecord
    comment: TicketComment


class TicketCommentedEvent(TypedDict):
    type: Literal["ticket.commented"]
    timestamp: str
    data: TicketCommentedEventData


class EquipmentCreatedEventData(TypedDict):
    equipment: EquipmentRecord


class EquipmentCreatedEvent(TypedDict):
    type: Literal["equipment.created"]
    timestamp: str
    data: EquipmentCreatedEventData


class EquipmentUpdatedEventData(TypedDict):
    equipment: EquipmentRecord
    changes: Dict[str, FieldChange]


class EquipmentUpdatedEvent(TypedDict):
    type: Literal["equipment.updated"]
    timestamp: str
    data: EquipmentUpdatedEventData


class EquipmentRetiredEventData(TypedDict):
    equipment: EquipmentRecord


class EquipmentRetiredEvent(TypedDict):
    type: Literal["equipment.retired"]
    timestamp: str
    data: EquipmentRetiredEventData


class ProjectEventDataProject(TypedDict):
    id: str
    name: str
    description: str
    createdAt: str
    updatedAt: str


class ProjectEventData(TypedDict):
    project: ProjectEventDataProject


class ProjectCreatedEvent(TypedDict):
    type: Literal["project.created"]
    timestamp: str
    data: ProjectEventData


class ProjectUpdatedEvent(TypedDict):
    type: Literal["project.updated"]
    timestamp: str
    data: ProjectEventData


class ProjectDeletedEvent(TypedDict):
    type: Literal["project.deleted"]
    timestamp: str
    data: ProjectEventData


class WebhookDisabledEventData(TypedDict):
    webhookId: str
    url: str
    reason: str
    failingSince: Optional[str]


class WebhookDisabledEvent(TypedDict):
    type: Literal["webhook.disabled"]
    timestamp: str
    data: WebhookDisabledEventData


class ApiKeyEventKey(TypedDict):
    id: str
    name: str
    prefix: str
    userId: str
    scopes: List[str]
    expiresAt: Optional[str]


class PreviousKey(TypedDict):
    id: str
    prefix: str
    graceEndsAt: Optional[str]


class ApiKeyRotatedEventData(TypedDict):
    apiKey: ApiKeyEventKey
    previousKey: PreviousKey


class ApiKeyRotatedEvent(TypedDict):
    type: Literal["api_key.rotated"]
    timestamp: str
    data: ApiKeyRotatedEventData


class ApiKeyExpiringEventData(TypedDict):
    apiKey: ApiKeyEventKey
    daysLeft: Literal[30, 7, 1]


class ApiKeyExpiringEvent(TypedDict):
    type: Literal["api_key.expiring"]
    timestamp: str
    data: ApiKeyExpiringEventData


class ApiKeyExpiredEventData(TypedDict):
    apiKey: ApiKeyEventKey


class ApiKeyExpiredEvent(TypedDict):
    type: Literal["api_key.expired"]
    timestamp: str
    data: ApiKeyExpiredEventData


class WebhookEventData(TypedDict, total=False):
    """Every key a delivery's `data` may hold; each event's own class above says which."""

    alert: AlertRecord
    ticket: TicketRecord
    changes: Dict[str, FieldChange]
    comment: TicketComment
    equipment: EquipmentRecord
    project: ProjectEventDataProject
    webhookId: str
    url: str
    reason: str
    failingSince: Optional[str]
    apiKey: ApiKeyEventKey
    previousKey: PreviousKey
    daysLeft: Literal[30, 7, 1]


class WebhookEvent(TypedDict):
    """The body of a webhook delivery, as verify_webhook returns it."""

    type: WebhookEventType
    timestamp: str
    data: WebhookEventData


# --- end of the generated webhook payload types ---


# --- the change feed (incremental sync) --------------------------------------------------------
ChangeType = Literal["tickets", "alerts", "equipment"]
ChangeOp = Literal["upsert", "delete"]


class Change(TypedDict):
    type: ChangeType
    id: str
    op: ChangeOp
    at: str
    record: Optional[Union[TicketRecord, AlertRecord, EquipmentRecord]]
    """the record as its GET answers it now (tickets snake_case); None for a delete"""


class ChangeList(TypedDict):
    data: List[Change]
    next: str
    """the token to store and send as ``since`` next time"""
    hasMore: bool

# --- usage and audit trail (extensions) ---
class AuditEntry(TypedDict):
    id: str
    at: str
    kind: str
    keyId: Optional[str]
    userId: Optional[str]
    method: Optional[str]
    route: Optional[str]
    status: Optional[int]
    durationMs: Optional[float]
    ip: Optional[str]
    userAgent: Optional[str]
    requestId: Optional[str]
    detail: Optional[Dict[str, Any]]


class AuditLogPage(TypedDict):
    data: List[AuditEntry]
    nextCursor: Optional[str]
