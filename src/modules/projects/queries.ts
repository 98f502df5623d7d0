import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { newestFirst } from "../../db/paging.ts";
import { projects } from "../../db/schema/index.ts";

export type ProjectRow = typeof projects.$inferSelect;

/** Named data access for projects; every query is confined to one organization. */

export function listProjects(
  db: Executor,
  organizationId: string,
  window: { limit: number; offset: number },
) {
  return db
    .select()
    .from(projects)
    .where(eq(projects.organizationId, organizationId))
    .orderBy(...newestFirst(projects.createdAt, projects.id))
    .limit(window.limit)
    .offset(window.offset);
}

export function countProjects(db: Executor, organizationId: string) {
  return db.$count(projects, eq(projects.organizationId, organizationId));
}

export async function findProject(db: Executor, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, id)));
  return row;
}

export async function insertProject(
  db: Executor,
  values: { organizationId: string; name: string; description: string; at: Date },
) {
  const [row] = await db
    .insert(projects)
    .values({
      organizationId: values.organizationId,
      name: values.name,
      description: values.description,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  return row as ProjectRow;
}

export async function updateProjectRow(
  db: Executor,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string; updatedAt: Date },
) {
  const [row] = await db
    .update(projects)
    .set(changes)
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, id)))
    .returning();
  return row;
}

export async function deleteProjectRow(db: Executor, organizationId: string, id: string) {
  const [row] = await db
    .delete(projects)
    .where(and(eq(projects.organizationId, organizationId), eq(projects.id, id)))
    .returning();
  return row;
}
