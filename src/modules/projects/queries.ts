import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type PageWindow, windowed } from "../../db/paging.ts";
import { projects } from "../../db/schema/index.ts";

export type ProjectRow = typeof projects.$inferSelect;

/** Named data access for projects; every query is confined to one organization. */

export function listProjects(db: Executor, organizationId: string, window: PageWindow) {
  const mine = eq(projects.organizationId, organizationId);
  const query = db.select().from(projects).where(mine).$dynamic();
  return windowed(query, projects, mine, [projects.createdAt, projects.id], window);
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
