import { expect, test } from "bun:test";
import { ApiError } from "../../src/errors.ts";
import { projectPage } from "../../src/modules/projects/service.ts";

const problems = (args: { page?: number | null; limit?: number | null }) => {
  try {
    projectPage(args);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).details?.map((d) => d.path.join("."));
  }
};

test("the list window defaults to page 1, limit 10", () => {
  expect(projectPage({})).toEqual({ page: 1, limit: 10, offset: 0 });
  expect(projectPage({ page: null, limit: null })).toEqual({ page: 1, limit: 10, offset: 0 });
});

test("page ≥ 1 and limit 1..100 are accepted at their edges", () => {
  expect(projectPage({ page: 1, limit: 1 })).toEqual({ page: 1, limit: 1, offset: 0 });
  expect(projectPage({ page: 2_147_483_647, limit: 100 })).toEqual({
    page: 2_147_483_647,
    limit: 100,
    offset: 214_748_364_600,
  });
});

test("out of range or fractional values name every offending parameter", () => {
  expect(problems({ page: 0 })).toEqual(["page"]);
  expect(problems({ limit: 0 })).toEqual(["limit"]);
  expect(problems({ limit: 101 })).toEqual(["limit"]);
  expect(problems({ page: 1.5, limit: 2.5 })).toEqual(["page", "limit"]);
  // beyond GraphQL's 32-bit Int, so REST refuses it before the executor would
  expect(problems({ page: 2_147_483_648 })).toEqual(["page"]);
});
