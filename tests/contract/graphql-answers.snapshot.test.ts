import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send } from "../helpers/harness.ts";
import { snapshotApp } from "./snapshot-app.ts";

/**
 * `/graphql`'s transport must not move while its per-request work is cut (docs/performance.md,
 * "/graphql"): answers and refusals, status, every header but the request's own id, and the
 * body's exact bytes, compared with a snapshot taken before that work. Ids are replaced by
 * their order of first appearance (cursors decoded first), the clock is fixed.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** a page cursor holds a ticket's id: decoded, so the id is replaced like the others */
const CURSOR = /"nextCursor":"([A-Za-z0-9_-]+)"/g;
const VOLATILE = new Set(["x-request-id", "date"]);

const TICKETS = `query Tickets($limit: Int) {
  tickets(limit: $limit) {
    data { id title status priority equipmentId createdBy createdAt }
    pagination { total limit offset nextCursor }
  }
}`;

function suite(driver: DriverName) {
  const { clock, app, make } = snapshotApp(driver);

  test("answers and refusals are byte-for-byte the snapshot's", async () => {
    const ids = new Map<string, string>();
    const stable = (text: string) =>
      text
        .replace(
          CURSOR,
          (_, cursor: string) => `"nextCursor":"${Buffer.from(cursor, "base64url")}"`,
        )
        .replace(UUID, (id) => {
          const name = ids.get(id) ?? `<id-${ids.size + 1}>`;
          ids.set(id, name);
          return name;
        });
    const transcript: string[] = [];
    const { key, user } = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    stable(user.id);
    for (let i = 0; i < 3; i++) {
      clock.advance(1_000);
      const body = { title: `Ticket number ${i}`, description: `Description of ticket ${i}.` };
      await send(app, "/api/v1/tickets", { key, body });
    }
    const post = async (label: string, body: unknown, headers: Record<string, string> = {}) => {
      const text = typeof body === "string" ? body : JSON.stringify(body);
      const response = await send(app, "/graphql", {
        method: "POST",
        key,
        headers: { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : text,
      });
      await record(`POST ${label}`, response);
    };
    const record = async (label: string, response: Response) => {
      const headers = [...response.headers]
        .filter(([name]) => !VOLATILE.has(name))
        .map(([name, value]) => `${name}: ${value}`);
      transcript.push(`### ${label}`, `${response.status}`, ...headers, await response.text(), "");
    };

    const tickets = { query: TICKETS, operationName: "Tickets", variables: { limit: 2 } };
    for (let i = 1; i <= 3; i++) await post(`tickets query ${i} (compiled from the 2nd)`, tickets);
    await post("tickets query, graphql-response+json", tickets, {
      accept: "application/graphql-response+json",
    });
    await post("no body", undefined);
    await post("null", "null");
    await post("a number", "5");
    await post("a JSON string", '"{ whoami { user { id } } }"');
    await post("a batch", [{ query: "{ __typename }" }]);
    await post("malformed JSON", "{ nope");
    await post("text/plain", "{ __typename }", { "content-type": "text/plain" });
    await post("no query", {});
    await post("query not a string", { query: 5 });
    await post("unexpected parameter", { query: "{ __typename }", foo: 1 });
    await post("syntax error", { query: "{ tickets(" });
    await post("unknown field", { query: "{ nope }" });
    await post("unknown operation name", { query: TICKETS, operationName: "Other" });
    await post("variables that do not coerce", { query: TICKETS, variables: { limit: "x" } });
    await post("resolver error, twice", { query: "{ tickets(limit: 201) { data { id } } }" });
    await post("resolver error, again", { query: "{ tickets(limit: 201) { data { id } } }" });
    const aliases = Array.from(
      { length: 15 },
      (_, i) => `a${i}: tickets(limit: 200) { data { id title status } }`,
    );
    await post("over the cost limit", { query: `{ ${aliases.join(" ")} }` });
    await post("a NUL in a literal", {
      query:
        'mutation { createTicket(input: { title: "a\\u0000b", description: "long enough text" }) { id } }',
    });
    await post("a NUL in a variable", {
      query: "query($s: TicketStatus) { tickets(status: $s) { data { id } } }",
      variables: { s: "open\u0000" },
    });
    clock.advance(1_000);
    await post("a mutation", {
      query:
        'mutation { createTicket(input: { title: "Written", description: "By the snapshot." }) { title status } }',
    });
    await post("with an Origin that is not listed", tickets, { origin: "https://elsewhere.test" });
    const health = { method: "POST", key, body: tickets };
    await record("POST /graphql?x=/health", await send(app, "/graphql?x=/health", health));
    await record("POST /graphql?x=1", await send(app, "/graphql?x=1", health));
    const keyless = { method: "POST", body: { query: "{ __typename }" } };
    await record("POST no key", await send(app, "/graphql", keyless));
    const get = (query: string) => `/graphql?query=${encodeURIComponent(query)}`;
    await record("GET a query", await send(app, get("{ whoami { user { id } } }"), { key }));
    await record(
      "GET a mutation",
      await send(
        app,
        get('mutation { createTicket(input: { title: "x", description: "y" }) { id } }'),
        { key },
      ),
    );
    await record(
      "GET bad variables",
      await send(app, `${get(TICKETS)}&variables=%7Bnope`, { key }),
    );
    await record("PUT", await send(app, "/graphql", { method: "PUT", key }));
    expect(stable(transcript.join("\n"))).toMatchSnapshot();
  });
}

describeEachDriver("/graphql answers (snapshot)", suite);
