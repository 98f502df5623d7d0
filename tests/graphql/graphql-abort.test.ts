import { expect, test } from "bun:test";
import { setPeerAddress } from "../../src/http/peer.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { eventuallyFound } from "../helpers/wait.ts";

/**
 * A client that goes away before its `/graphql` answer (a dashboard closed, a load generator
 * stopping) is not a server error: the query is answered and the answer dropped, as a REST
 * request's is. Yoga used to be handed the client's abort signal and threw an AbortError,
 * logged as "unhandled error" and counted as a 500.
 */
function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];
  const { app, make } = useTestApp(driver, { logs });

  test("a query whose client went away is answered, and no error is logged", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    const controller = new AbortController();
    const request = new Request("http://localhost/graphql", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ tickets { data { id } } }" }),
      signal: controller.signal,
    });
    const answering = app.handle(setPeerAddress(request, "127.0.0.1"));
    controller.abort();
    const response = await answering;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { tickets: { data: [] } } });
    // the access log is written once the answer is sent: wait for that line
    const id = response.headers.get("x-request-id");
    const line = await eventuallyFound(
      () => logs.find((l) => l.msg === "request" && l.requestId === id),
      "the access-log line of the query",
    );
    expect(line?.status).toBe(200);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
  });
}

describeEachDriver("/graphql after the client went away", suite);
