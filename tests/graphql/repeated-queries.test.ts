import { afterEach, expect, type Mock, spyOn, test } from "bun:test";
import { queryBody, RepeatedQueries } from "../../src/graphql/repeated-queries.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * A `/graphql` query Yoga has answered from compiled code is answered again without Yoga's
 * pipeline (src/graphql/repeated-queries.ts, docs/decisions.md §42). It must answer exactly as
 * Yoga does, and leave to Yoga everything that is not a plain success.
 */

const TICKETS = `query Tickets($limit: Int, $status: TicketStatus) {
  tickets(limit: $limit, status: $status) {
    data { id title status priority equipmentId createdBy createdAt }
    pagination { total limit offset nextCursor }
  }
}`;

let answers: Mock<RepeatedQueries["answer"]> | undefined;
afterEach(() => answers?.mockRestore());

/** how the spied calls of `answer` ended: the JSON text, or undefined (Yoga answered) */
const outcomes = async () =>
  Promise.all((answers?.mock.results ?? []).map((result) => result.value as Promise<unknown>));

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  async function member() {
    const { key } = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    for (let i = 0; i < 3; i++) {
      const created = await send(app, "/api/v1/tickets", {
        key,
        body: { title: `Printer ${i} jams`, description: "On every page." },
      });
      expect(created.status).toBe(201);
    }
    return key;
  }

  const ask = async (key: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await send(app, "/graphql", { key, body, headers });
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      cache: response.headers.get("cache-control"),
      text: await response.text(),
    };
  };

  test("a repeated query is answered without Yoga from its third time, as Yoga answers it", async () => {
    const key = await member();
    answers = spyOn(RepeatedQueries.prototype, "answer");
    const body = { query: TICKETS, operationName: "Tickets", variables: { limit: 2 } };
    const runs = [];
    for (let run = 0; run < 4; run++) runs.push(await ask(key, body));
    // the first two by Yoga (interpreted, then compiled), the next two without it
    expect(await outcomes()).toEqual([undefined, undefined, runs[2]?.text, runs[3]?.text]);
    for (const run of runs.slice(1)) expect(run).toEqual(runs[0] as (typeof runs)[number]);
    expect(runs[0]).toMatchObject({
      status: 200,
      type: "application/json; charset=utf-8",
      cache: "no-store",
    });
    expect(JSON.parse(runs[0]?.text ?? "").data.tickets.data).toHaveLength(2);
    // other variables of a known query: answered without Yoga too, with their own rows
    const more = await ask(key, { ...body, variables: { limit: 3 } });
    expect(JSON.parse(more.text).data.tickets.data).toHaveLength(3);
    expect((await outcomes()).at(-1)).toBe(more.text);
  });

  test("a known query whose request is not a plain success is Yoga's to answer, as before", async () => {
    const key = await member();
    const body = { query: TICKETS, operationName: "Tickets", variables: { limit: 2 } };
    const refusals: [string, unknown, Record<string, string>?][] = [
      ["a NUL in a variable", { ...body, variables: { limit: 2, status: "open\u0000" } }],
      ["a variable of the wrong type", { ...body, variables: { limit: "two" } }],
      ["a limit out of range", { ...body, variables: { limit: 500 } }],
      ["a cost over the limit", { ...body, variables: { limit: 1_000 } }],
      ["another Accept", body, { accept: "application/graphql-response+json" }],
      ["an extension", { ...body, extensions: { persistedQuery: { version: 1 } } }],
      ["an unknown operation name", { ...body, operationName: "Other" }],
    ];
    // each one before the query is known: Yoga's answer of record
    const before = [];
    for (const [, request, headers] of refusals) before.push(await ask(key, request, headers));
    expect(before.map((answer) => answer.status)).toEqual([400, 400, 200, 400, 200, 200, 400]);
    for (let run = 0; run < 3; run++) expect((await ask(key, body)).status).toBe(200);
    answers = spyOn(RepeatedQueries.prototype, "answer");
    for (const [index, [what, request, headers]] of refusals.entries()) {
      expect({ what, answer: await ask(key, request, headers) }).toEqual({
        what,
        answer: before[index] as (typeof before)[number],
      });
    }
    // asked for the five plain ones only (not another Accept, not an extension), none answered
    expect(await outcomes()).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
}

describeEachDriver("/graphql's repeated queries", suite);

test("a body is a query only with its text, variables and operation name, of their types", () => {
  expect(queryBody({ query: "{ a }" })).toEqual({
    query: "{ a }",
    variables: undefined,
    operationName: undefined,
  });
  expect(queryBody({ query: "{ a }", variables: null, operationName: null })).toEqual({
    query: "{ a }",
    variables: undefined,
    operationName: undefined,
  });
  expect(queryBody({ query: "{ a }", variables: { x: 1 }, operationName: "A" })).toEqual({
    query: "{ a }",
    variables: { x: 1 },
    operationName: "A",
  });
  for (const body of [
    {},
    { query: 1 },
    { query: "{ a }", variables: [1] },
    { query: "{ a }", variables: "x" },
    { query: "{ a }", operationName: 1 },
    { query: "{ a }", extensions: {} },
    { query: "x".repeat(10_001) },
  ]) {
    expect(queryBody(body as Record<string, unknown>)).toBeUndefined();
  }
});
