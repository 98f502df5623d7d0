import type { Database } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ApiError } from "../../errors.ts";
import type { CreateUserInput } from "../../generated/schema.ts";
import { Problems } from "../../validation.ts";
import { emailSkeletons, hasInvisible, looksLike, normalizeEmail } from "./emails.ts";
import { allEmails, insertUser, lockLookalikes } from "./queries.ts";

// linear: the dot-separated domain labels cannot overlap, so no input makes it backtrack
const EMAIL = /^[^\s@]{1,64}@(?:[^\s@.]+\.)+[^\s@.]+$/;

export const LOOKALIKE_USER =
  "This email looks the same as an existing user's (lookalike characters); check it is typed with plain letters";

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
    const keys = emailSkeletons(email);
    const same = (other: string) => other.toLowerCase() === email.toLowerCase();
    try {
      return await this.database.db.transaction(async (tx) => {
        await lockLookalikes(tx, "users");
        // the same address in another case is not a lookalike: the unique index answers it
        const twin = (await allEmails(tx)).find((o) => !same(o) && looksLike(keys, o));
        if (twin !== undefined) throw new ApiError("CONFLICT", LOOKALIKE_USER);
        return insertUser(tx, {
          email,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError("CONFLICT", "A user with this email already exists");
      throw error;
    }
  }
}
