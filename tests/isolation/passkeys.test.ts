import { expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { organizations } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

// each sign-in hashes a password at OWASP's scrypt cost
setDefaultTimeout(120_000);

/** The requirePasskey policy (docs/decisions.md §12) across two organizations. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("passkey policy: B's requirePasskey binds B's ADMIN seats only; A's admin, a technician in B, keeps the password", async () => {
    const { a, b } = await twoOrganizations(make);
    const both = await memberWithPassword(app, make, a.organizationId, "admin");
    await app.services.operator.addMember({
      organizationId: b.organizationId,
      userId: both.id,
      role: "technician",
    });
    const bAdmin = await memberWithPassword(app, make, b.organizationId, "admin");
    await expectUntouched(app, a.organizationId, async () => {
      const { json } = await graphql(
        app,
        TEST_ADMIN_TOKEN,
        `mutation ($id: ID!) { updateOrganization(id: $id, input: { requirePasskey: true }) { id } }`,
        { id: b.organizationId },
      );
      expect(json.errors).toBeUndefined();
      const aSide = await pageClient(app).signIn(both.email);
      expect(aSide.headers.get("location"), "A's admin, only a technician in B").toBe(
        "/settings/api-keys",
      );
      const bSide = await pageClient(app).signIn(bAdmin.email);
      expect(bSide.headers.get("location"), "B's admin may only add a passkey").toBe(
        "/settings/security",
      );
    });
    const [aRow] = await app.services.database.db
      .select({ requirePasskey: organizations.requirePasskey })
      .from(organizations)
      .where(eq(organizations.id, a.organizationId));
    expect(aRow?.requirePasskey, "A's policy unchanged").toBe(false);
  });
}

describeEachDriver("tenant isolation: passkey policy", suite);
