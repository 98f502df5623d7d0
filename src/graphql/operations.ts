/**
 * The GraphQL operations behind the REST routes. Each is validated against the schema at
 * start-up (see executor.ts); a REST route selects exactly the fields its JSON shows.
 */
export const operations = {
  Whoami: /* GraphQL */ `
    query Whoami {
      whoami {
        organization { id name }
        user { id role }
        apiKey { name scopes expiresAt }
      }
    }
  `,
  Health: /* GraphQL */ `
    query Health {
      health { status }
    }
  `,
  ListProjects: /* GraphQL */ `
    query ListProjects($page: Int, $limit: Int) {
      projects(page: $page, limit: $limit) {
        data { id name createdAt }
        pagination { page limit total }
      }
    }
  `,
  GetProject: /* GraphQL */ `
    query GetProject($id: ID!) {
      project(id: $id) { id name description createdAt updatedAt }
    }
  `,
  CreateProject: /* GraphQL */ `
    mutation CreateProject($input: CreateProjectInput!) {
      createProject(input: $input) { id name description createdAt }
    }
  `,
  UpdateProject: /* GraphQL */ `
    mutation UpdateProject($id: ID!, $input: UpdateProjectInput!) {
      updateProject(id: $id, input: $input) { id name description createdAt updatedAt }
    }
  `,
  DeleteProject: /* GraphQL */ `
    mutation DeleteProject($id: ID!) {
      deleteProject(id: $id) { success message }
    }
  `,
  ListTickets: /* GraphQL */ `
    query ListTickets($limit: Int, $offset: Int, $status: TicketStatus, $priority: TicketPriority) {
      tickets(limit: $limit, offset: $offset, status: $status, priority: $priority) {
        data { id title status priority equipmentId createdBy createdAt }
        pagination { total limit offset }
      }
    }
  `,
  ListEquipment: /* GraphQL */ `
    query ListEquipment($limit: Int, $offset: Int, $status: EquipmentStatus) {
      equipments(limit: $limit, offset: $offset, status: $status) {
        data {
          id name type platform location unitId managedBy assignedUserId status createdAt
        }
        pagination { total limit offset }
      }
    }
  `,
  BulkCreateEquipment: /* GraphQL */ `
    mutation BulkCreateEquipment($input: BulkCreateEquipmentInput!) {
      bulkCreateEquipment(input: $input) {
        requested created failed
        items { name id installUrl }
        errors { index name error }
      }
    }
  `,
  CreateTicket: /* GraphQL */ `
    mutation CreateTicket($input: CreateTicketInput!) {
      createTicket(input: $input) { id title status priority equipmentId createdBy createdAt }
    }
  `,
  ListEquipmentUnits: /* GraphQL */ `
    query ListEquipmentUnits($limit: Int, $offset: Int) {
      equipmentUnits(limit: $limit, offset: $offset) {
        data { id name parentId createdAt }
        pagination { total limit offset }
      }
    }
  `,
  ListGroups: /* GraphQL */ `
    query ListGroups($limit: Int, $offset: Int) {
      groups(limit: $limit, offset: $offset) {
        data { id name description memberCount createdAt }
        pagination { total limit offset }
      }
    }
  `,
  ListUsers: /* GraphQL */ `
    query ListUsers($limit: Int, $offset: Int) {
      users(limit: $limit, offset: $offset) {
        data { userId role profile { firstName lastName email } }
        pagination { total limit offset }
      }
    }
  `,
  ListAgentReleases: /* GraphQL */ `
    query ListAgentReleases($limit: Int, $offset: Int, $platform: String, $channel: String) {
      agentReleases(limit: $limit, offset: $offset, platform: $platform, channel: $channel) {
        data { id version platform architecture channel releasedAt downloadUrl sha256 }
        pagination { total limit offset }
      }
    }
  `,
  ListAlerts: /* GraphQL */ `
    query ListAlerts(
      $limit: Int
      $offset: Int
      $status: AlertStatus
      $severity: AlertSeverity
    ) {
      alerts(limit: $limit, offset: $offset, status: $status, severity: $severity) {
        data {
          id source externalId severity status title message equipmentId occurredAt receivedAt
        }
        pagination { total limit offset }
      }
    }
  `,
  ListWebhooks: /* GraphQL */ `
    query ListWebhooks($page: Int, $limit: Int) {
      webhooks(page: $page, limit: $limit) {
        data { id url events active disabledReason createdAt updatedAt }
        pagination { page limit total }
      }
    }
  `,
  GetWebhook: /* GraphQL */ `
    query GetWebhook($id: ID!) {
      webhook(id: $id) { id url events active disabledReason createdAt updatedAt }
    }
  `,
  CreateWebhook: /* GraphQL */ `
    mutation CreateWebhook($input: CreateWebhookInput!) {
      createWebhook(input: $input) { id url events active createdAt secret }
    }
  `,
  UpdateWebhook: /* GraphQL */ `
    mutation UpdateWebhook($id: ID!, $input: UpdateWebhookInput!) {
      updateWebhook(id: $id, input: $input) {
        id url events active disabledReason createdAt updatedAt
      }
    }
  `,
  DeleteWebhook: /* GraphQL */ `
    mutation DeleteWebhook($id: ID!) {
      deleteWebhook(id: $id) { success message }
    }
  `,
  ListWebhookDeliveries: /* GraphQL */ `
    query ListWebhookDeliveries($id: ID!, $page: Int, $limit: Int) {
      webhookDeliveries(id: $id, page: $page, limit: $limit) {
        data { ...DeliveryFields }
        pagination { page limit total }
      }
    }
    fragment DeliveryFields on WebhookDelivery {
      id messageId webhookId subscriptionId eventId eventType status attempts lastStatusCode lastError
      lastAttemptAt nextAttemptAt deliveredAt createdAt
    }
  `,
  RetryWebhookDelivery: /* GraphQL */ `
    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {
      retryWebhookDelivery(id: $id, deliveryId: $deliveryId) {
        id messageId webhookId subscriptionId eventId eventType status attempts lastStatusCode lastError
        lastAttemptAt nextAttemptAt deliveredAt createdAt
      }
    }
  `,
  MyOrganizations: /* GraphQL */ `
    query MyOrganizations {
      myOrganizations { id name plan role seat }
    }
  `,
  MyApiKeys: /* GraphQL */ `
    query MyApiKeys($organizationId: ID!) {
      myApiKeys(organizationId: $organizationId) {
        id name prefix scopes createdAt expiresAt lastUsedAt revokedAt status
        owner { id firstName lastName }
      }
    }
  `,
  CreateMyApiKey: /* GraphQL */ `
    mutation CreateMyApiKey($input: CreateMyApiKeyInput!) {
      createMyApiKey(input: $input) { apiKey { id name } secret }
    }
  `,
  RevokeApiKey: /* GraphQL */ `
    mutation RevokeApiKey($id: ID!) {
      revokeApiKey(id: $id) { id name revokedAt }
    }
  `,
} as const;
