"""Typed request and response bodies. Keys are exactly the service's JSON field names (see
``GET /swagger/json``): tickets are snake_case, everything else camelCase. Optional keys sit
in a ``total=False`` class; nullable values are ``Optional``."""

from typing import List, Literal, Optional, TypedDict

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
WebhookEventType = Literal["project.created", "project.updated", "project.deleted"]
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


class WebhookEventData(TypedDict):
    project: Project


class WebhookEvent(TypedDict):
    """The body of a webhook delivery, as verify_webhook returns it."""

    type: WebhookEventType
    timestamp: str
    data: WebhookEventData
