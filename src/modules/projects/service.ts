import { requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { nextCursor, PAGE_NUMBER_LIMITS, pageNumberWindow } from "../../db/paging.ts";
import { notFound } from "../../errors.ts";
import type { CreateProjectInput, UpdateProjectInput } from "../../generated/schema.ts";
import { isUuid, Problems } from "../../validation.ts";
import { projectEvents } from "./events.ts";
import {
  countProjects,
  deleteProjectRow,
  findProject,
  insertProject,
  listProjects,
  type ProjectRow,
  updateProjectRow,
} from "./queries.ts";

/** Interface B bounds (docs/decisions.md §8). */
export const PROJECT_LIMITS = {
  name: { min: 1, max: 100 },
  description: { max: 1000 },
  ...PAGE_NUMBER_LIMITS,
} as const;

/** What a project looks like everywhere outside the database: API answers and event payloads. */
export const projectJson = (row: ProjectRow) => ({
  id: row.id,
  name: row.name,
  description: row.description,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Page and limit of the projects list (interface B bounds), checked before GraphQL's 32-bit Int. */
export const projectPage = pageNumberWindow;

const notFoundProject = () => notFound("Project not found");

/**
 * Projects of the caller's organization. A key needs the scope AND its owner the permission:
 * projects:read + projects.view to read, projects:write + projects.manage to write. Any plan and
 * any seat may use interface B; the role's permissions decide. Each change and its outbox
 * event are written in one transaction.
 */
export class ProjectService {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(
    principal: Principal,
    args: { page?: number | null; limit?: number | null; after?: string | null },
  ) {
    canRead(principal);
    const window = projectPage(args);
    const { page, limit } = window;
    const db = this.database.db;
    const organizationId = principal.organization.id;
    const [rows, total] = await Promise.all([
      listProjects(db, organizationId, window),
      countProjects(db, organizationId),
    ]);
    const last = rows.at(-1);
    const next = nextCursor(
      window,
      rows.length,
      total,
      last && { at: last.createdAt, id: last.id },
    );
    return { data: rows.map(projectJson), pagination: { page, limit, total, nextCursor: next } };
  }

  async get(principal: Principal, id: string) {
    canRead(principal);
    const row = isUuid(id)
      ? await findProject(this.database.db, principal.organization.id, id)
      : undefined;
    if (!row) throw notFoundProject();
    return projectJson(row);
  }

  async create(principal: Principal, input: CreateProjectInput) {
    canWrite(principal);
    const problems = new Problems();
    if (input.name == null) problems.add(["input", "name"], "Required");
    const values = checkInput(problems, input);
    problems.throwIfAny();
    const organizationId = principal.organization.id;
    const at = this.now();
    return this.database.db.transaction(async (tx) => {
      const row = await insertProject(tx, {
        organizationId,
        name: values.name as string,
        description: values.description ?? "",
        at,
      });
      const project = projectJson(row);
      await projectEvents.created.record(tx, { organizationId, data: { project }, now: at });
      return project;
    });
  }

  async update(principal: Principal, id: string, input: UpdateProjectInput) {
    canWrite(principal);
    const problems = new Problems();
    const changes = checkInput(problems, input);
    problems.check(
      changes.name !== undefined || changes.description !== undefined,
      ["input"],
      "Give name, description or both",
    );
    problems.throwIfAny();
    if (!isUuid(id)) throw notFoundProject();
    const organizationId = principal.organization.id;
    const at = this.now();
    return this.database.db.transaction(async (tx) => {
      const row = await updateProjectRow(tx, organizationId, id, { ...changes, updatedAt: at });
      if (!row) throw notFoundProject();
      const project = projectJson(row);
      await projectEvents.updated.record(tx, { organizationId, data: { project }, now: at });
      return project;
    });
  }

  async delete(principal: Principal, id: string) {
    canWrite(principal);
    if (!isUuid(id)) throw notFoundProject();
    const organizationId = principal.organization.id;
    const at = this.now();
    await this.database.db.transaction(async (tx) => {
      const row = await deleteProjectRow(tx, organizationId, id);
      if (!row) throw notFoundProject();
      // the event carries the project as it was just before deletion
      const project = projectJson(row);
      await projectEvents.deleted.record(tx, { organizationId, data: { project }, now: at });
    });
    return { success: true, message: "Project deleted" };
  }
}

function canRead(principal: Principal) {
  requireScope(principal, "projects:read");
  requirePermission(principal, "projects.view");
}

function canWrite(principal: Principal) {
  requireScope(principal, "projects:write");
  requirePermission(principal, "projects.manage");
}

/** Checks the fields that are present; the name is trimmed, the description kept as written. */
function checkInput(problems: Problems, input: UpdateProjectInput) {
  const name = input.name?.trim();
  const description = input.description ?? undefined;
  const { name: n, description: d } = PROJECT_LIMITS;
  if (name !== undefined) problems.length(name, ["input", "name"], n.min, n.max);
  if (description !== undefined) problems.length(description, ["input", "description"], 0, d.max);
  return { name, description };
}
