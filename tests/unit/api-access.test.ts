import { expect, test } from "bun:test";
import { PERMISSIONS, SCOPES } from "../../src/auth/permissions.ts";
import type { Principal } from "../../src/auth/principal.ts";
import type { Database } from "../../src/db/client.ts";
import { AlertService } from "../../src/modules/alerts/service.ts";
import { EquipmentService } from "../../src/modules/equipment/service.ts";
import { GroupService } from "../../src/modules/groups/service.ts";
import { TicketService } from "../../src/modules/tickets/service.ts";
import { UnitService } from "../../src/modules/units/service.ts";
import { MemberService } from "../../src/modules/users/service.ts";

/**
 * The one API-access rule (docs/decisions.md, "Feature modules"): every interface A service
 * method applies `requireApiAccess` to the principal it is handed, before its scopes,
 * permissions and validation, and before it reads anything. The services are called directly
 * with a database that fails when touched, so a method that skipped the rule, or checked it
 * after a query, fails here whatever route or resolver calls it.
 */
const untouchable = {
  get db(): never {
    throw new Error("the database was touched before the API-access rule");
  },
} as unknown as Database;
const now = () => new Date("2026-01-01T00:00:00Z");

const principal = (overrides: Partial<Principal> = {}): Principal => ({
  organization: { id: "o", name: "O", plan: "PRO", dailyQuota: null, unlimitedQuota: false },
  user: { id: "u", role: "admin" },
  seat: "ADMIN",
  permissions: new Set(PERMISSIONS),
  apiKey: { id: "k", name: "k", scopes: SCOPES, expiresAt: null },
  ...overrides,
});

/** Every interface A service method of these features, with arguments that would pass. */
const METHODS: Record<string, (p: Principal) => unknown> = {
  "TicketService.list": (p) => new TicketService(untouchable, now).list(p, {}),
  "TicketService.create": (p) =>
    new TicketService(untouchable, now).create(p, {
      title: "A valid title",
      description: "A valid description",
    }),
  "EquipmentService.list": (p) => new EquipmentService(untouchable, "http://x", now).list(p, {}),
  "EquipmentService.bulkCreate": (p) =>
    new EquipmentService(untouchable, "http://x", now).bulkCreate(p, {
      items: [{ name: "pc-1", type: "workstation" }],
    }),
  "AlertService.list": (p) => new AlertService(untouchable, now).list(p, {}),
  "UnitService.list": (p) => new UnitService(untouchable).list(p, {}),
  "GroupService.list": (p) => new GroupService(untouchable).list(p, {}),
  "MemberService.list": (p) => new MemberService(untouchable).list(p, {}),
};

/** The refusal a call ends with, thrown at once or as a rejected promise. */
async function refusal(call: () => unknown) {
  try {
    await call();
  } catch (error) {
    const e = error as { status?: number; message: string };
    return { status: e.status, message: e.message };
  }
  return "allowed";
}

for (const [name, call] of Object.entries(METHODS)) {
  test(`${name}: a FREE organization is refused before anything is read`, async () => {
    const free = principal({ organization: { ...principal().organization, plan: "FREE" } });
    expect(await refusal(() => call(free)), name).toEqual({
      status: 403,
      message: "API access requires the Pro plan",
    });
  });

  test(`${name}: a USER seat is refused before anything is read`, async () => {
    expect(await refusal(() => call(principal({ seat: "USER" }))), name).toEqual({
      status: 403,
      message: "API access requires an administrator or technician seat",
    });
  });

  test(`${name}: the API-access rule comes before the scope check`, async () => {
    const free = principal({
      organization: { ...principal().organization, plan: "FREE" },
      apiKey: { ...principal().apiKey, scopes: [] },
    });
    expect(await refusal(() => call(free)), name).toMatchObject({
      message: "API access requires the Pro plan",
    });
    // with API access, the same key without scopes is refused by its scope, still unread
    const scopeless = principal({ apiKey: { ...principal().apiKey, scopes: [] } });
    expect(await refusal(() => call(scopeless)), name).toMatchObject({
      status: 403,
      message: expect.stringMatching(/^Missing scope: /),
    });
  });
}
