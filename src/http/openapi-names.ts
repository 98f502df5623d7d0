/** Names in the OpenAPI document that generated clients and readers see. */

/** Names client generators turn into method names; changing one is a breaking change. */
export const OPERATION_IDS: Record<string, string> = {
  "GET /api/v1/whoami": "getWhoami",
  "GET /api/v1/health": "getHealth",
  "GET /api/v1/equipments": "listEquipment",
  "POST /api/v1/equipments/bulk-create": "bulkCreateEquipment",
  "GET /api/v1/equipment-units": "listEquipmentUnits",
  "GET /api/v1/alerts": "listAlerts",
  "POST /api/v1/alerts/ingest": "ingestAlerts",
  "GET /api/v1/tickets": "listTickets",
  "POST /api/v1/tickets": "createTicket",
  "GET /api/v1/users": "listUsers",
  "GET /api/v1/groups": "listGroups",
  "GET /api/v1/agent-releases": "listAgentReleases",
  "GET /install/{token}": "getInstallInfo",
  "GET /api/projects": "listProjects",
  "POST /api/projects": "createProject",
  "GET /api/projects/{id}": "getProject",
  "PATCH /api/projects/{id}": "updateProject",
  "DELETE /api/projects/{id}": "deleteProject",
  "GET /api/webhooks": "listWebhooks",
  "POST /api/webhooks": "createWebhook",
  "GET /api/webhooks/{id}": "getWebhook",
  "PATCH /api/webhooks/{id}": "updateWebhook",
  "DELETE /api/webhooks/{id}": "deleteWebhook",
  "GET /api/webhooks/{id}/deliveries": "listWebhookDeliveries",
  "POST /api/webhooks/{id}/deliveries/{deliveryId}/retry": "retryWebhookDelivery",
};

export const TAG_DESCRIPTIONS: Record<string, string> = {
  identity: "Interface A: who the key is, and a key and quota check",
  "equipment units": "Interface A: the organization's structure",
  groups: "Interface A: groups of members",
  users: "Interface A: the organization's members",
  "agent releases": "Interface A: agent builds (global)",
  alerts: "Interface A: alerts, and their keyless ingestion from monitoring",
  tickets: "Interface A: support tickets (snake_case fields, as the seed shows them)",
  equipment: "Interface A: equipment, bulk creation, agent install links",
  projects: "Interface B: projects; changes emit webhook events",
  webhooks: "Interface B: webhook subscriptions and their delivery log",
};
