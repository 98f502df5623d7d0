/**
 * Every query site in src/ that reads or writes organization data (found by
 * tests/isolation/scan.ts), and the isolation test that proves another organization is never
 * touched through it: `file > test name` under tests/isolation/. registry.test.ts fails when a
 * site has no entry (a new query: write a two-organization test, then list it here), when an
 * entry names a site that no longer exists, or when the named test is missing.
 */
const MODULES = "modules.test.ts";
const WEBHOOKS = "webhooks.test.ts";
const DISPATCHER = "dispatcher.test.ts";
const AUTH = "auth.test.ts";
const LIMITS = "limits.test.ts";
const SETTINGS = "settings.test.ts";
const CHANGES = "changes.test.ts";
const PASSKEYS = "passkeys.test.ts";
const KEY_SECURITY = "key-security.test.ts";

const AUDIT = "audit.test.ts";

const TICKETS = `${MODULES} > tickets: B lists only its own, with a total that counts only its own; creates in its own organization, cannot cite A's equipment`;
const EQUIPMENT = `${MODULES} > equipment: B lists only its own; bulk-create refuses A's unit and A's member; install links resolve to their own equipment`;
const DIRECTORY = `${MODULES} > units, users and groups: each organization lists only its own; memberCount counts only members of the group's organization`;
const ALERTS = `${MODULES} > alerts: ingest lands in the organization owning the source address; B lists only its own and cannot cite A's equipment`;
const ALERT_DEDUP = `${MODULES} > alerts: the same source + externalId from two organizations are two alerts; each repeat answers its own organization's id`;
const PROJECTS = `${MODULES} > projects: B cannot read, change or delete A's project; its own list and writes stay in B`;
const OUTBOX = `${WEBHOOKS} > outbox: B's project events fan out to B's subscription only, never to A's`;
const SUBSCRIPTIONS = `${WEBHOOKS} > subscriptions: B cannot read, change or delete A's; B's list and writes stay in B`;
const SECRETS = `${WEBHOOKS} > secrets: B cannot rotate A's; start-up sealing seals each clear secret to its own row`;
const KEY_CAP = `${AUTH} > keys: the 50 active keys of a member count per organization; B's keys do not stop A's`;
const DELIVERIES = `${WEBHOOKS} > deliveries: B cannot list, read through its own webhook, or retry A's deliveries`;
const SENDING = `${DISPATCHER} > A's receiver failing then gone disables A only; B's deliveries arrive, B's subscription stays healthy`;
const RETENTION = `${DISPATCHER} > retention purges A's settled old event and keeps B's old event that is still pending`;
const KEY_ORG = `${AUTH} > a key acts in its own organization with that organization's role, even when the owner belongs to both`;
const KEYS = `${AUTH} > keys: creating one for a non-member is refused; revoking A's key leaves B's working; last use is recorded on the used key only`;
const OPERATOR = `${AUTH} > operator: members, custom roles and ingest sources of one organization leave the other's alone`;
const LOOKALIKE_MEMBERS = `${AUTH} > operator: B's lookalike check compares B's members only; a lookalike of A's member joins B, A untouched`;
const OPERATOR_READS = `${SETTINGS} > operator: organization(B) lists only B's members, roles, ingest sources and keys; userAccounts lists each user's own memberships`;
const MEMBER_KEYS = `${SETTINGS} > settings screen: B's ADMIN sees only B and B's keys and cannot revoke A's key (404, the key still works); a member of both sees each one's keys apart`;
const PASSKEY_POLICY = `${PASSKEYS} > passkey policy: B's requirePasskey binds B's ADMIN seats only; A's admin, a technician in B, keeps the password`;
const IDEMPOTENCY = `${LIMITS} > idempotency: the same Idempotency-Key in two organizations creates two projects; neither replays nor blocks the other`;
const IDEMPOTENCY_RELEASE = `${LIMITS} > idempotency: B's failed request gives back B's key only; A's record of the same key still replays`;
const IDEMPOTENCY_TAKEOVER = `${LIMITS} > idempotency: taking over B's abandoned reservation leaves A's reservation of the same key alone`;
const IDEMPOTENCY_PRUNE = `${LIMITS} > idempotency: pruning A's expired records keeps B's fresh ones`;
const QUOTA = `${LIMITS} > quota: one organization's requests never count against another's, in memory or stored`;
const CHANGE_FEED = `${CHANGES} > change feed: B's feed holds only B's tickets, alerts and equipment, and reading it leaves A untouched`;
const CHANGE_RETENTION = `${CHANGES} > retention and counter folding: B's deleted ticket leaves no change, A's live ticket keeps its change and its total`;
const LIFECYCLE = "lifecycle.test.ts";
const TICKET_CHANGES = `${LIFECYCLE} > tickets: B cannot read, change, comment on or list the comments of A's ticket, nor assign A's member; B's own stay in B`;
const ALERT_MOVES = `${LIFECYCLE} > alerts: B cannot read, acknowledge, resolve or reopen A's alert`;
const EQUIPMENT_CHANGES = `${LIFECYCLE} > equipment: B cannot read, update or retire A's record, nor give its own A's unit or member`;
const QUOTA_PRUNE = `${LIMITS} > quota: pruning B's buckets that left the window keeps A's current ones`;
const AUDIT_READS = `${AUDIT} > audit: B's pages, filters, cursors and export never show A's entries, even filtered by A's key`;
const AUDIT_SIGN_IN = `${AUDIT} > audit: a sign-in is recorded in each organization of the member, never in another`;
const AUDIT_USAGE = `${AUDIT} > audit: B's usage page of A's key is not found; each sees its own key's usage`;
const AUDIT_RETENTION = `${AUDIT} > audit: retention removes B's expired rows (FREE, 7 days) and keeps A's (ENTERPRISE)`;
const AUDIT_USAGE_RETENTION = `${AUDIT} > audit: key-usage retention removes B's expired hourly counts (FREE) and keeps A's (ENTERPRISE)`;

const KEY_CHANGES = `${KEY_SECURITY} > key security: B rotates, restricts and sets its policy; A's keys, grace and policy stay as they were; A's key is not found to B's ADMIN`;
const KEY_WARNINGS = `${KEY_SECURITY} > key security: expiry warnings of B's key go to B's outbox only, and leave A's schedule unsent`;

export const ISOLATION_TESTS: Record<string, string> = {
  "src/auth/load-principal.ts#loadKeyRecord": KEY_ORG,
  "src/db/queries/api-keys.ts#recordLastUse": KEYS,
  "src/db/queries/audit-log.ts#deleteExpiredAuditBatch": AUDIT_RETENTION,
  "src/db/queries/audit-log.ts#deleteExpiredKeyUsage": AUDIT_USAGE_RETENTION,
  "src/db/queries/audit-log.ts#insertAuditRows": AUDIT_READS,
  "src/db/queries/audit-log.ts#organizationsOfUsers": AUDIT_SIGN_IN,
  "src/db/queries/api-keys.ts#recordGraceUse": KEY_CHANGES,
  // the reservation, its lookup and the takeover of an abandoned one
  "src/db/queries/idempotency.ts#completeKey": IDEMPOTENCY,
  "src/db/queries/idempotency.ts#dropStaleKey": IDEMPOTENCY_TAKEOVER,
  "src/db/queries/idempotency.ts#pruneKeysBefore": IDEMPOTENCY_PRUNE,
  "src/db/queries/idempotency.ts#releaseKey": IDEMPOTENCY_RELEASE,
  "src/db/queries/idempotency.ts#reserveKey": IDEMPOTENCY_TAKEOVER,
  "src/db/queries/quota.ts#addedCounts": QUOTA,
  "src/db/queries/quota.ts#pruneQuotaUsage": QUOTA_PRUNE,
  "src/db/queries/quota.ts#quotaTotals": QUOTA,
  "src/modules/alerts/queries.ts#alertIdsByExternalKey": ALERT_DEDUP,
  "src/modules/alerts/queries.ts#existingEquipmentIds": ALERTS,
  "src/modules/alerts/queries.ts#findAlert": ALERT_MOVES,
  "src/modules/alerts/queries.ts#updateAlertRow": ALERT_MOVES,
  "src/modules/equipment/queries.ts#findEquipment": EQUIPMENT_CHANGES,
  "src/modules/equipment/queries.ts#updateEquipmentRow": EQUIPMENT_CHANGES,
  "src/modules/tickets/queries.ts#findTicket": TICKET_CHANGES,
  "src/modules/tickets/comment-queries.ts#insertComment": TICKET_CHANGES,
  "src/modules/tickets/queries.ts#isAssignableMember": TICKET_CHANGES,
  "src/modules/tickets/comment-queries.ts#listComments": TICKET_CHANGES,
  "src/modules/tickets/queries.ts#updateTicketRow": TICKET_CHANGES,
  "src/modules/alerts/queries.ts#insertAlertsSkippingDuplicates": ALERT_DEDUP,
  "src/modules/alerts/queries.ts#listAlerts": ALERTS,
  "src/modules/alerts/queries.ts#organizationForAddress": ALERTS,
  // the feed's read and its records, as they are now
  "src/modules/changes/queries.ts#alertsByIds": CHANGE_FEED,
  "src/modules/changes/queries.ts#equipmentByIds": CHANGE_FEED,
  "src/modules/changes/queries.ts#readChanges": CHANGE_FEED,
  "src/modules/changes/queries.ts#ticketsByIds": CHANGE_FEED,
  // the periodic run across organizations: old superseded changes and tombstones, counter slots
  "src/modules/changes/retention-queries.ts#foldTicketCounts": CHANGE_RETENTION,
  "src/modules/changes/retention-queries.ts#pruneChangesBatch": CHANGE_RETENTION,

  // pages and exports: the rows' bound (boundSlot), then their entries (entries)
  "src/modules/audit/queries.ts#boundSlot": AUDIT_READS,
  "src/modules/audit/queries.ts#entries": AUDIT_READS,
  "src/modules/audit/usage-queries.ts#keyUsage": AUDIT_USAGE,
  "src/modules/equipment/queries.ts#consumeEnrollmentToken": EQUIPMENT,
  "src/modules/equipment/queries.ts#existingUnitIds": EQUIPMENT,
  "src/modules/equipment/queries.ts#findEnrollmentToken": EQUIPMENT,
  "src/modules/equipment/queries.ts#insertEnrollmentTokens": EQUIPMENT,
  "src/modules/equipment/queries.ts#insertEquipment": EQUIPMENT,
  "src/modules/equipment/queries.ts#listEquipment": EQUIPMENT,
  "src/modules/equipment/queries.ts#memberUserIds": EQUIPMENT,
  "src/modules/groups/queries.ts#listGroups": DIRECTORY,
  "src/modules/groups/queries.ts#memberCount": DIRECTORY,
  // removeMember, addMember (with checkRoleExists), createRole, addIngestSource
  "src/modules/operator/queries.ts#countActiveKeys": KEY_CAP,
  "src/modules/key-security/queries.ts#claimDueNotices": KEY_WARNINGS,
  "src/modules/key-security/queries.ts#endGraceOfReplaced": KEY_CHANGES,
  "src/modules/key-security/queries.ts#findKey": KEY_CHANGES,
  "src/modules/key-security/queries.ts#insertKey": KEY_CHANGES,
  "src/modules/key-security/queries.ts#markRotated": KEY_CHANGES,
  "src/modules/key-security/queries.ts#membershipOf": KEY_CHANGES,
  "src/modules/key-security/queries.ts#setAllowedIps": KEY_CHANGES,
  "src/modules/operator/queries.ts#deleteMembership": OPERATOR,
  // createApiKey's membership check and insert, revokeApiKey's update and its re-read
  "src/modules/operator/queries.ts#findApiKey": KEYS,
  "src/modules/operator/queries.ts#findCustomRole": OPERATOR,
  "src/modules/operator/queries.ts#memberEmails": LOOKALIKE_MEMBERS,
  "src/modules/operator/queries.ts#findMembership": KEYS,
  "src/modules/operator/queries.ts#insertApiKey": KEYS,
  "src/modules/operator/queries.ts#insertIngestSource": OPERATOR,
  "src/modules/operator/queries.ts#insertRole": OPERATOR,
  "src/modules/operator/queries.ts#revokeApiKeyRow": KEYS,
  "src/modules/operator/queries.ts#upsertMembership": OPERATOR,
  "src/modules/passkeys/queries.ts#adminSeatRequiresPasskey": PASSKEY_POLICY,
  "src/modules/projects/queries.ts#deleteProjectRow": PROJECTS,
  "src/modules/projects/queries.ts#findProject": PROJECTS,
  "src/modules/projects/queries.ts#insertProject": PROJECTS,
  "src/modules/projects/queries.ts#listProjects": PROJECTS,
  "src/modules/projects/queries.ts#updateProjectRow": PROJECTS,
  // the operator's reads (OperatorReads)
  "src/modules/settings/queries.ts#ingestSourcesOf": OPERATOR_READS,
  "src/modules/settings/queries.ts#keysOf": OPERATOR_READS,
  "src/modules/settings/queries.ts#membersOf": OPERATOR_READS,
  "src/modules/settings/queries.ts#membershipsOfUser": OPERATOR_READS,
  "src/modules/settings/queries.ts#rolesOf": OPERATOR_READS,
  // the settings screen's keys (MemberKeyService: organizations, list, revoke)
  "src/modules/settings/queries.ts#keyById": MEMBER_KEYS,
  "src/modules/settings/queries.ts#keysWithOwners": MEMBER_KEYS,
  "src/modules/settings/queries.ts#memberOrganizations": MEMBER_KEYS,
  "src/modules/tickets/queries.ts#equipmentExists": TICKETS,
  "src/modules/tickets/queries.ts#insertTicket": TICKETS,
  // the page and its exact total (the ticket_counts sum); listTickets only runs these statements
  "src/modules/tickets/page-queries.ts#prepare": TICKETS,
  "src/modules/units/queries.ts#listUnits": DIRECTORY,
  "src/modules/users/queries.ts#listMembers": DIRECTORY,
  "src/modules/webhooks/queries.ts#clearSecrets": SECRETS,
  "src/modules/webhooks/queries.ts#deleteSubscription": SUBSCRIPTIONS,
  "src/modules/webhooks/queries.ts#findDelivery": DELIVERIES,
  "src/modules/webhooks/queries.ts#findSubscription": SUBSCRIPTIONS,
  "src/modules/webhooks/queries.ts#insertSubscription": SUBSCRIPTIONS,
  "src/modules/webhooks/queries.ts#listDeliveries": DELIVERIES,
  "src/modules/webhooks/queries.ts#listSubscriptions": SUBSCRIPTIONS,
  "src/modules/webhooks/queries.ts#requeueDelivery": DELIVERIES,
  "src/modules/webhooks/queries.ts#rotateSecret": SECRETS,
  "src/modules/webhooks/queries.ts#sealClearSecret": SECRETS,
  "src/modules/webhooks/queries.ts#updateSubscription": SUBSCRIPTIONS,
  "src/outbox/delivery-store.ts#claimDue": SENDING,
  "src/outbox/delivery-store.ts#disableSubscription": SENDING,
  "src/outbox/delivery-store.ts#finishAttempt": SENDING,
  "src/outbox/delivery-store.ts#markSubscriptionFailing": SENDING,
  "src/outbox/delivery-store.ts#markSubscriptionHealthy": SENDING,
  "src/outbox/delivery-store.ts#purgeEvents": RETENTION,
  "src/outbox/outbox.ts#recordEvent": OUTBOX,
};

const DEMO_SEED =
  "`--demo` start-up seeding of its own demo organization; never reached from a request";

/** Sites that need no two-organization test, each with the reason. */
export const EXEMPT: Record<string, string> = {
  "src/demo/rows.ts#seedAlerts": DEMO_SEED,
  "src/demo/rows.ts#seedEquipment": DEMO_SEED,
  "src/demo/rows.ts#seedGroups": DEMO_SEED,
  "src/demo/rows.ts#seedTickets": DEMO_SEED,
  "src/demo/rows.ts#seedUnits": DEMO_SEED,
  "src/demo/seed.ts#findDemoAdmin": DEMO_SEED,
};
