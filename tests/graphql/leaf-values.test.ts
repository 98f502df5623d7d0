import { beforeAll, expect, test } from "bun:test";
import { execute, Kind, parse } from "graphql";
import type { Principal } from "../../src/auth/principal.ts";
import { FEATURE_RESOLVERS } from "../../src/features.ts";
import { createContext } from "../../src/graphql/context.ts";
import { OperationExecutor } from "../../src/graphql/executor.ts";
import { type Operation, operations } from "../../src/graphql/operations.ts";
import { buildSchema } from "../../src/graphql/schema.ts";
import { seedDemoQuietly } from "../helpers/demo.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * The REST routes' operations are compiled without serialising GraphQL's own scalars and the
 * enums again (src/graphql/executor.ts, docs/decisions.md §37): the resolvers' values go out as
 * they are. That is only right while every resolver returns what the schema says (a string for
 * an ID, a number for an Int…). Every query operation a key runs is executed here both ways
 * over the demo organization, the compiled one against graphql-js's `execute` (every leaf
 * serialised), and their JSON must be the same text; /graphql's compiled repeats
 * (src/graphql/repeat-compiler.ts) must answer as its first, interpreted run.
 */

/** Query operations that need what the demo does not have, and why they are not compared. */
const NOT_COMPARED: Record<string, string> = {
  MyOrganizations: "a signed-in member's (the settings pages render it as HTML)",
  MyApiKeys: "a signed-in member's (the settings pages render it as HTML)",
  MyApiKeyUsage: "a signed-in member's (the settings pages render it as HTML)",
  GetWebhook: "the demo has no webhook (a subscription needs an address nobody may be sent to)",
  ListWebhookDeliveries: "the demo has no webhook",
};

/**
 * An answer's JSON text without the change feed's `next` cursor: it carries the database's
 * transaction horizon at the moment of the read, which other transactions move between two runs
 * (through PgBouncer, the suite's neighbours'). Every other value must be the same.
 */
const stable = (answer: unknown) =>
  JSON.stringify(answer, (key, value) => (key === "next" ? undefined : value));

function suite(driver: DriverName) {
  const { app } = useTestApp(driver);
  const schema = buildSchema(FEATURE_RESOLVERS);
  const compiled = new OperationExecutor(schema);
  let principal: Principal;
  const ids: Record<string, string> = {};

  const context = () =>
    createContext({ services: app.services, now: () => new Date() }, { principal });

  beforeAll(async () => {
    const key = await seedDemoQuietly(app);
    principal = await app.services.keys.authenticateNow(key, "127.0.0.1");
    const first = async (path: string) => (await (await send(app, path, { key })).json()).data[0];
    ids.ticket = (await first("/api/v1/tickets")).id;
    ids.alert = (await first("/api/v1/alerts")).id;
    ids.equipment = (await first("/api/v1/equipments")).id;
    const comment = await send(app, `/api/v1/tickets/${ids.ticket}/comments`, {
      key,
      body: { body: "Rebooted it." },
    });
    expect(comment.status).toBe(201);
    const project = await send(app, "/api/projects", { key, body: { name: "Printers" } });
    expect(project.status).toBe(201);
    ids.project = (await project.json()).id;
  });

  /** The variables each query runs with over the demo organization. */
  const variablesOf = (name: string): Record<string, unknown> => {
    switch (name) {
      case "GetTicket":
        return { id: ids.ticket };
      case "GetAlert":
        return { id: ids.alert };
      case "GetEquipment":
        return { id: ids.equipment };
      case "GetProject":
        return { id: ids.project };
      case "ListTicketComments":
        return { ticketId: ids.ticket, limit: 50 };
      case "Whoami":
      case "Health":
      case "AuditLog":
        return {};
      default:
        return { limit: 50 };
    }
  };

  test("every query answers the same JSON with and without the leaves serialised again", async () => {
    const compared: string[] = [];
    for (const operation of operations as Operation[]) {
      const document = parse(operation.toString());
      const definition = document.definitions[0];
      if (definition?.kind !== Kind.OPERATION_DEFINITION || definition.operation !== "query")
        continue;
      const name = definition.name?.value ?? "";
      if (NOT_COMPARED[name]) continue;
      const variableValues = variablesOf(name);
      const reference = await execute({
        schema,
        document,
        contextValue: context(),
        variableValues,
      });
      expect({ name, errors: reference.errors ?? [] }).toEqual({ name, errors: [] });
      const fast = await compiled.run(operation, context(), variableValues);
      expect({ name, json: stable(fast) }).toEqual({
        name,
        json: stable(reference.data),
      });
      compared.push(name);
    }
    // the hot routes' operations and every list are among them
    for (const name of ["Whoami", "ListTickets", "GetTicket", "ListEquipment", "ListAlerts"])
      expect(compared).toContain(name);
    expect(compared.length).toBeGreaterThanOrEqual(15);
  });

  test("/graphql answers a repeated query (compiled from its second run) as its first", async () => {
    const key = await seedDemoQuietly(app);
    for (const operation of operations as Operation[]) {
      const text = operation.toString();
      const name = text.match(/^query (\w+)/)?.[1];
      if (!name || NOT_COMPARED[name]) continue;
      const body = { query: text, operationName: name, variables: variablesOf(name) };
      const answers: string[] = [];
      for (let run = 0; run < 3; run++) {
        const response = await send(app, "/graphql", { key, body });
        answers.push(`${response.status} ${stable(await response.json())}`);
      }
      expect({ name, ok: answers[0]?.startsWith('200 {"data"') }).toEqual({ name, ok: true });
      expect({ name, second: answers[1], third: answers[2] }).toEqual({
        name,
        second: answers[0],
        third: answers[0],
      });
    }
  });

  test("the comparison sees a leaf the schema does not allow: a number where an ID belongs", async () => {
    const whoami = operations.find((o) => o.toString().includes("query Whoami")) as Operation;
    const odd = { ...principal, organization: { ...principal.organization, id: 7 } };
    const oddContext = createContext(
      { services: app.services, now: () => new Date() },
      { principal: odd as unknown as Principal },
    );
    const reference = await execute({
      schema,
      document: parse(whoami.toString()),
      contextValue: oddContext,
    });
    const fast = await compiled.run(whoami, oddContext);
    expect(JSON.stringify(fast)).not.toBe(JSON.stringify(reference.data));
  });
}

describeEachDriver("REST operations' leaf values", suite);
