import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ApiError } from "../../errors.ts";
import type { CreateUserInput } from "../../generated/schema.ts";
import { Problems } from "../../validation.ts";
import { emailSkeleton, hasInvisible, normalizeEmail } from "./emails.ts";
import { allEmails, insertUser } from "./queries.ts";

// linear: the dot-separated domain labels cannot overlap, so no input makes it backtrack
const EMAIL = /^[^\s@]{1,64}@(?:[^\s@.]+\.)+[^\s@.]+$/;

/** Operator mutation createUser: a person, not yet a member of any organization. */
export class UserAdmin {
  constructor(private readonly database: Database) {}

  async create(input: CreateUserInput) {
    const email = normalizeEmail(input.email);
    const invisible = email.length <= 254 && hasInvisible(email);
    new Problems()
      .check(!invisible, ["input", "email"], "Must not contain invisible characters")
      .check(
        invisible || (email.length <= 254 && EMAIL.test(email)), // the length first: never scan a huge string
        ["input", "email"],
        "Must be an email address",
      )
      .length(input.firstName.trim(), ["input", "firstName"], 1, 100)
      .length(input.lastName.trim(), ["input", "lastName"], 1, 100)
      .throwIfAny();
    const skeleton = emailSkeleton(email);
    for (const other of await allEmails(this.database.db)) {
      if (other.toLowerCase() !== email.toLowerCase() && emailSkeleton(other) === skeleton) {
        throw new ApiError(
          "CONFLICT",
          "This email looks the same as an existing user's (lookalike characters); check it is typed with plain letters",
        );
      }
    }
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
