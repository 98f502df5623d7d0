import type { Executor } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import { isUuid } from "../../validation.ts";
import { findOrganization, findUser } from "./queries.ts";

/** The organization with this id, or 404; a malformed id is simply not found. */
export async function requireOrganization(db: Executor, id: string) {
  const row = isUuid(id) ? await findOrganization(db, id) : undefined;
  if (!row) throw notFound("Organization not found");
  return row;
}

export async function requireUser(db: Executor, id: string) {
  const row = isUuid(id) ? await findUser(db, id) : undefined;
  if (!row) throw notFound("User not found");
  return row;
}
