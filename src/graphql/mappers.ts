/**
 * What each GraphQL object type's resolvers are handed and return when it is not the SDL's type
 * itself: codegen.ts maps `<Type>` to `<Type>Row` here, so src/graphql/resolvers.generated.ts
 * checks every resolver's parent and result against it. A row is the table's Drizzle type
 * (`$inferSelect`); a type the services build is the SDL's type (src/generated/schema.ts) less
 * the fields that have resolvers of their own, plus what those resolvers read. The rows' extra
 * columns are dropped by the schema, never sent. Imports only the floors below the services, so
 * that the features' resolvers (which import this through the generated types) stay in no
 * circle with their own folder.
 */
import type { apiKeys, organizations, users } from "../db/schema/index.ts";
import type * as Types from "../generated/schema.ts";
import type { LiveEvent } from "../outbox/live-events.ts";

type ApiKeyColumns = typeof apiKeys.$inferSelect;
/**
 * an API key's row without its hash (the SDL's columns, and the rotation's when read); the
 * list queries join its owner and its organization's lifetime policy
 */
export type ApiKeyRow = Omit<ApiKeyColumns, "keyHash" | "allowedIps" | "rotatedAt"> &
  Partial<Pick<ApiKeyColumns, "allowedIps" | "rotatedAt">> & {
    owner?: typeof users.$inferSelect;
    maxKeyLifetimeDays?: number | null;
  };

/** an organization's row: members, roles, sources and keys are read by field resolvers */
export type OrganizationRow = typeof organizations.$inferSelect;

/** the caller's organization; the key-expiration choices follow from its lifetime policy */
export type MyOrganizationRow = Omit<Types.MyOrganization, "keyExpirationChoices"> & {
  maxKeyLifetimeDays?: number | null;
};

/** a member with their user; the passkey count is a field resolver (operator only) */
export type OrganizationMemberRow = Omit<Types.OrganizationMember, "passkeys" | "user"> & {
  user: typeof users.$inferSelect;
};

/** a user's row with hasPassword; memberships are a field resolver */
export type UserAccountRow = Omit<Types.UserAccount, "memberships">;

/** a list's ticket: these columns are read only when the selection asks for them */
type TicketOnRequest = "description" | "assigneeId" | "updatedAt" | "version";
export type TicketRow = Omit<Types.Ticket, TicketOnRequest> &
  Partial<Pick<Types.Ticket, TicketOnRequest>>;

/** a record of the change feed carries its GraphQL type name (ChangeRecord's __resolveType) */
export type ChangeRecordRow = Record<string, unknown> & {
  __typename: NonNullable<Types.ChangeRecord["__typename"]>;
};

/** a live event as delivered (the record as JSON), under the subscription's own field name */
type LiveEventRow<Field extends string> = LiveEvent & Record<Field, LiveEvent["record"]>;
export type AlertEventRow = LiveEventRow<"alert">;
export type EquipmentEventRow = LiveEventRow<"equipment">;
export type TicketEventRow = LiveEventRow<"ticket">;
