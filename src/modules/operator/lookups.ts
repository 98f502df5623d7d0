import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { organizations, users } from "../../db/schema/index.ts";
import { notFound } from "../../errors.ts";
import { isUuid } from "../../validation.ts";

/** The organization with this id, or 404; a malformed id is simply not found. */
export async function requireOrganization(db: Executor, id: string) {
  const row = isUuid(id)
    ? await db.query.organizations.findFirst({ where: eq(organizations.id, id) })
    : undefined;
  if (!row) throw notFound("Organization not found");
  return row;
}

export async function requireUser(db: Executor, id: string) {
  const row = isUuid(id) ? await db.query.users.findFirst({ where: eq(users.id, id) }) : undefined;
  if (!row) throw notFound("User not found");
  return row;
}
