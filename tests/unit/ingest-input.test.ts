import { expect, test } from "bun:test";
import { ApiError } from "../../src/errors.ts";
import { parseIngestBody } from "../../src/modules/alerts/ingest-input.ts";

/** The details a body is refused with, or null when it is accepted. */
function problems(body: unknown) {
  try {
    parseIngestBody(body);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).details;
  }
}

test("a single alert gets defaults and an empty path; unknown fields are ignored", () => {
  expect(parseIngestBody({ source: "s", title: "t", labels: { team: "ops" } })).toEqual([
    {
      source: "s",
      title: "t",
      severity: "warning",
      message: null,
      externalId: null,
      equipmentId: null,
      occurredAt: null,
      path: [],
    },
  ]);
});

test("null optional fields count as absent", () => {
  const [alert] = parseIngestBody({ source: "s", title: "t", message: null, severity: null });
  expect(alert).toMatchObject({ message: null, severity: "warning" });
});

test("a batch keeps order and paths; occurredAt is converted to an instant", () => {
  const alerts = parseIngestBody({
    alerts: [
      { source: "a", title: "1" },
      { source: "b", title: "2", occurredAt: "2026-01-31T12:00:00+01:00" },
    ],
  });
  expect(alerts.map((a) => a.path)).toEqual([
    ["alerts", "0"],
    ["alerts", "1"],
  ]);
  expect(alerts[1]?.occurredAt?.toISOString()).toBe("2026-01-31T11:00:00.000Z");
});

test("lengths count characters, not UTF-16 units", () => {
  expect(problems({ source: "s", title: "😀".repeat(200) })).toBeNull();
  expect(problems({ source: "s", title: "😀".repeat(201) })?.[0]?.path).toEqual(["title"]);
});

test("non-object bodies and batch items are refused with their path", () => {
  for (const body of [null, undefined, 42, "text", [{ source: "s", title: "t" }]]) {
    expect(problems(body)).toEqual([
      { path: ["body"], message: "Must be an alert object or { alerts: [...] }" },
    ]);
  }
  expect(problems({ alerts: [{ source: "s", title: "t" }, null] })).toEqual([
    { path: ["alerts", "1"], message: "Must be an alert object" },
  ]);
});
