import { expect, setDefaultTimeout, test } from "bun:test";
import { and, asc, eq, like } from "drizzle-orm";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { SoftAuthenticator } from "../helpers/authenticator.ts";
import { describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { addPasskey, ORIGIN, passkeySignIn, signInOptions } from "../helpers/passkeys.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

// each password sign-in hashes at OWASP's scrypt cost
setDefaultTimeout(120_000);

/**
 * Sign-ins are audit events of every organization the person belongs to, whatever they signed
 * in with (docs/security.md#audit-trail): a passkey like a password, refusals too.
 */
describeEachDriver("sign-ins in the audit trail", (driver) => {
  const { app, make } = useTestApp(driver, { env: { PUBLIC_BASE_URL: ORIGIN } });

  /** The session events of an organization's trail, oldest first. */
  async function sessionEvents(organizationId: string) {
    await app.services.auditTrail.flush();
    const rows = await app.services.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, organizationId), like(auditLog.kind, "session.%")))
      .orderBy(asc(auditLog.at), asc(auditLog.id));
    return rows.map((r) => ({ kind: r.kind, userId: r.userId, ip: r.ip, detail: r.detail }));
  }

  async function memberWithPasskey(organizationId: string) {
    const user = await memberWithPassword(app, make, organizationId, "admin");
    const browser = pageClient(app);
    expect((await browser.signIn(user.email)).status).toBe(303);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(browser, authenticator, "Laptop")).status).toBe(303);
    const [passkey] = await app.services.passkeys.list(user.id);
    return { user, authenticator, passkeyId: passkey?.id as string };
  }

  test("a passkey sign-in is recorded in each of the person's organizations, as a password's is", async () => {
    const first = await make.organization();
    const second = await make.organization();
    const { user, authenticator, passkeyId } = await memberWithPasskey(first.id);
    const beforeJoining = await sessionEvents(first.id); // written while in one organization
    await app.services.operator.addMember({
      organizationId: second.id,
      userId: user.id,
      role: "technician",
    });
    const signedIn = await passkeySignIn(pageClient(app), authenticator);
    expect(signedIn.status).toBe(303);

    const password = { kind: "session.signed_in", userId: user.id, ip: "127.0.0.1" };
    const passkey = {
      kind: "session.signed_in",
      userId: user.id,
      ip: "127.0.0.1",
      detail: { method: "passkey", passkeyId },
    };
    expect(beforeJoining).toEqual([{ ...password, detail: { method: "password" } }]);
    expect(await sessionEvents(first.id)).toEqual([...beforeJoining, passkey]);
    expect(await sessionEvents(second.id), "the organization joined after").toEqual([passkey]);
  });

  test("refused passkeys of a known member are failed sign-ins with the reason; an unknown one names no one", async () => {
    const org = await make.organization();
    const { user, authenticator, passkeyId } = await memberWithPasskey(org.id);
    const before = (await sessionEvents(org.id)).length;

    const otherOrigin = await passkeySignIn(pageClient(app), authenticator, {
      origin: "https://evil.example",
    });
    expect(otherOrigin.status).toBe(401);
    expect((await passkeySignIn(pageClient(app), authenticator, { signCount: 9 })).status).toBe(
      303,
    );
    const copied = await passkeySignIn(pageClient(app), authenticator, { signCount: 9 });
    expect(copied.status, "a counter that did not go up").toBe(401);
    expect(await app.services.passkeys.remove(user.id, passkeyId)).toBe(true);
    const removed = await passkeySignIn(pageClient(app), authenticator, { signCount: 10 });
    expect(removed.status, "no such passkey any more").toBe(401);
    // a ceremony never answered: no passkey was presented
    expect((await signInOptions(pageClient(app))).status).toBe(200);

    const failed = (reason: string) => ({
      kind: "session.sign_in_failed",
      userId: user.id,
      ip: "127.0.0.1",
      detail: { method: "passkey", passkeyId, reason },
    });
    expect((await sessionEvents(org.id)).slice(before)).toEqual([
      failed("invalid"),
      {
        kind: "session.signed_in",
        userId: user.id,
        ip: "127.0.0.1",
        detail: { method: "passkey", passkeyId },
      },
      failed("replayed"),
    ]);
  });

  test("a wrong password, and a right one refused by the passkey policy, are failed sign-ins", async () => {
    const org = await make.organization();
    const { user } = await memberWithPasskey(org.id);
    await app.services.operator.updateOrganization(org.id, { requirePasskey: true });
    const before = (await sessionEvents(org.id)).length;
    const wrong = await pageClient(app).signIn(user.email, "not the password at all");
    expect(wrong.status).toBe(401);
    const refused = await pageClient(app).signIn(user.email, PASSWORD);
    expect(refused.status).toBe(403);
    const failed = (reason: string) => ({
      kind: "session.sign_in_failed",
      userId: user.id,
      ip: "127.0.0.1",
      detail: { method: "password", reason },
    });
    expect((await sessionEvents(org.id)).slice(before)).toEqual([
      failed("wrong password"),
      failed("passkey required"),
    ]);
  });
});
