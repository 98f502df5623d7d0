import { builtInRole, isPermission } from "../../auth/permissions.ts";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ApiError } from "../../errors.ts";
import type { CreateRoleInput } from "../../generated/schema.ts";
import { Problems } from "../../validation.ts";
import { requireOrganization } from "./lookups.ts";
import { insertRole } from "./queries.ts";

const ROLE_NAME = /^[a-z][a-z0-9_-]*$/;

/** Operator mutation createRole: a custom role of one organization (built-in names refused). */
export class RoleAdmin {
  constructor(private readonly database: Database) {}

  async create(input: CreateRoleInput) {
    const problems = new Problems()
      .check(
        ROLE_NAME.test(input.name) && input.name.length <= 50,
        ["input", "name"],
        "Must be 1 to 50 lowercase letters, digits, - or _, starting with a letter",
      )
      .check(!builtInRole(input.name), ["input", "name"], `"${input.name}" is a built-in role`);
    input.permissions.forEach((permission, i) => {
      problems.check(
        isPermission(permission),
        ["input", "permissions", String(i)],
        `Unknown permission: ${permission}`,
      );
    });
    problems.throwIfAny();
    const db = this.database.db;
    await requireOrganization(db, input.organizationId);
    try {
      return await insertRole(db, { ...input, permissions: [...new Set(input.permissions)] });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError("CONFLICT", "A role with this name already exists");
      throw error;
    }
  }
}
