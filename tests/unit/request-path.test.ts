import { describe, expect, test } from "bun:test";
import { pathOf } from "../../src/http/request-context.ts";

describe("pathOf: the path of a request URL, for the limits and the access log", () => {
  test("drops the origin and the query", () => {
    expect(pathOf("http://localhost/api/v1/whoami")).toBe("/api/v1/whoami");
    expect(pathOf("https://api.example.com:8443/api/v1/equipments?limit=20&offset=0")).toBe(
      "/api/v1/equipments",
    );
    expect(pathOf("http://[::1]:3000/health?x=/y")).toBe("/health");
  });

  test("an origin with no path is the root", () => {
    expect(pathOf("http://localhost")).toBe("/");
    expect(pathOf("http://localhost/")).toBe("/");
  });

  test("keeps the path as sent: slashes and escapes are not rewritten", () => {
    expect(pathOf("http://localhost//api//v1/%7Euser")).toBe("//api//v1/%7Euser");
  });
});
