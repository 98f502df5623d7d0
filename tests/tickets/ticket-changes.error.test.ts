import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import {
  call,
  eventCount,
  LIFECYCLE_SCOPES,
  VALID_TICKET,
  watchEvents,
} from "../helpers/lifecycle.ts";

/**
 * Bad changes of a ticket: each a clear 4xx in the contract's format, the ticket unchanged
 * (same version) and no event written (docs/api.md, docs/decisions.md §17).
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  /** a ticket of a watched organization, moved through `statuses` first */
  async function arranged(statuses: string[] = []) {
    const member = await make.member({ scopes: LIFECYCLE_SCOPES });
    await watchEvents(app, member.key);
    const created = await call(app, "/api/v1/tickets", { key: member.key, body: VALID_TICKET });
    const id = created.body.id as string;
    for (const status of statuses) {
      const moved = await call(app, `/api/v1/tickets/${id}`, {
        key: member.key,
        method: "PATCH",
        body: { status },
      });
      expect(moved.status).toBe(200);
    }
    const events = await eventCount(app, member.organizationId);
    const before = await call(app, `/api/v1/tickets/${id}`, { key: member.key });
    /** the ticket and the event log are as they were */
    const unchanged = async () => {
      const after = await call(app, `/api/v1/tickets/${id}`, { key: member.key });
      expect(after.body, "the ticket is unchanged").toEqual(before.body);
      expect(await eventCount(app, member.organizationId), "no event written").toBe(events);
    };
    return { ...member, id, unchanged };
  }

  const patch = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
    call(app, `/api/v1/tickets/${id}`, { key, method: "PATCH", body, headers });

  test("an unknown or malformed id → 404 Ticket not found", async () => {
    const { key } = await arranged();
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      expect(await call(app, `/api/v1/tickets/${id}`, { key })).toMatchObject({
        status: 404,
        body: { error: "Ticket not found" },
      });
      expect((await patch(key, id, { title: "New title" })).status).toBe(404);
      expect((await call(app, `/api/v1/tickets/${id}/comments`, { key })).status).toBe(404);
      const comment = await call(app, `/api/v1/tickets/${id}/comments`, {
        key,
        body: { body: "hello" },
      });
      expect(comment.status).toBe(404);
    }
  });

  for (const [path, to] of [
    [[], "open"],
    [["closed"], "open"],
    [["closed"], "in_progress"],
    [["resolved"], "open"],
  ] as const) {
    const from = path.at(-1) ?? "open";
    test(`${from} → ${to} when ${from} is ${from === to ? "already the status" : "not allowed"}: ${from === to ? "200, nothing changes" : "409 Invalid status transition"}`, async () => {
      const { key, id, unchanged } = await arranged([...path]);
      const answer = await patch(key, id, { status: to });
      if (from === to) expect(answer.status).toBe(200);
      else
        expect(answer).toMatchObject({
          status: 409,
          body: { error: `Invalid status transition: ${from} → ${to}` },
        });
      await unchanged();
    });
  }

  test("a stale If-Match → 412 Version mismatch; a malformed one too", async () => {
    const { key, id, unchanged } = await arranged(["in_progress"]);
    for (const tag of ['"1"', '"3"', "1", '"abc"', 'W/"9"']) {
      const answer = await patch(key, id, { title: "Someone else's" }, { "if-match": tag });
      expect({ tag, ...answer.body, status: answer.status }).toEqual({
        tag,
        status: 412,
        error: "Version mismatch",
      });
    }
    await unchanged();
  });

  test("an empty patch, nulls and out-of-range text → 400 naming each field", async () => {
    const { key, id, unchanged } = await arranged();
    const empty = await patch(key, id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.details).toEqual([
      { path: ["body"], message: expect.stringContaining("Give at least one of") },
    ]);
    const bad = await patch(key, id, { title: "abc", description: "short" });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string[] }) => d.path.join("."))).toEqual(
      expect.arrayContaining(["title", "description"]),
    );
    const nulls = await patch(key, id, { title: null });
    expect(nulls.status).toBe(400);
    const malformed = await patch(key, id, { assigneeId: "x" });
    expect(malformed.body.details[0].path).toEqual(["assigneeId"]);
    const unknownMember = await patch(key, id, { assigneeId: crypto.randomUUID() });
    expect(unknownMember.body.details).toEqual([
      {
        path: ["assigneeId"],
        message: "Must be a member of your organization with an administrator or technician seat",
      },
    ]);
    await unchanged();
  });

  test("NUL in any field of a patch or a comment → 400, nothing stored", async () => {
    const { key, id, unchanged } = await arranged();
    const patched = await patch(key, id, { title: "Bad\u0000title" });
    expect(patched.status).toBe(400);
    expect(patched.body.details[0].path).toEqual(["title"]);
    const comment = await call(app, `/api/v1/tickets/${id}/comments`, {
      key,
      body: { body: "nul\u0000here" },
    });
    expect(comment.status).toBe(400);
    await unchanged();
    const listed = await call(app, `/api/v1/tickets/${id}/comments`, { key });
    expect(listed.body.pagination.total).toBe(0);
  });

  test("a comment over 10,000 characters, empty or blank → 400; exactly 10,000 is fine", async () => {
    const { key, id, unchanged } = await arranged();
    for (const body of ["x".repeat(10_001), "", "   "]) {
      const answer = await call(app, `/api/v1/tickets/${id}/comments`, { key, body: { body } });
      expect({ length: body.length, status: answer.status }).toEqual({
        length: body.length,
        status: 400,
      });
      expect(answer.body.details[0].path).toEqual(["body"]);
    }
    await unchanged();
    const longest = await call(app, `/api/v1/tickets/${id}/comments`, {
      key,
      body: { body: "é".repeat(10_000) },
    });
    expect(longest.status).toBe(201);
  });
}

describeEachDriver("ticket changes: bad input", suite);
