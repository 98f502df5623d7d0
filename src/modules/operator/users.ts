import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ApiError } from "../../errors.ts";
import { Problems } from "../../validation.ts";
import { insertUser } from "./queries.ts";

// linear: the dot-separated domain labels cannot overlap, so no input makes it backtrack
const EMAIL = /^[^\s@]{1,64}@(?:[^\s@.]+\.)+[^\s@.]+$/;

export interface CreateUserInput {
  email: string;
  firstName: string;
  lastName: string;
}

/** Operator mutation createUser: a person, not yet a member of any organization. */
export class UserAdmin {
  constructor(private readonly database: Database) {}

  async create(input: CreateUserInput) {
    const email = input.email.trim();
    new Problems()
      .check(
        email.length <= 254 && EMAIL.test(email), // the length first: never scan a huge string
        ["input", "email"],
        "Must be an email address",
      )
      .length(input.firstName.trim(), ["input", "firstName"], 1, 100)
      .length(input.lastName.trim(), ["input", "lastName"], 1, 100)
      .throwIfAny();
    try {
      return await insertUser(this.database.db, {
        email,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError("CONFLICT", "A user with this email already exists");
      throw error;
    }
  }
}
