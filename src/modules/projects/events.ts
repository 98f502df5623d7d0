import { Type as t } from "@sinclair/typebox";
import { defineWebhookEvent } from "../../outbox/events.ts";

/** On the wire an RFC 3339 string; in process the row's Date, which JSON turns into one. */
const Timestamp = t.Unsafe<Date | string>(t.String({ format: "date-time" }));

/** `data` of every project event: the project as `GET /api/projects/{id}` answers it. */
const ProjectEventData = t.Object(
  {
    project: t.Object({
      id: t.String({ format: "uuid" }),
      name: t.String(),
      description: t.String(),
      createdAt: Timestamp,
      updatedAt: Timestamp,
    }),
  },
  { title: "ProjectEventData" },
);

const projectEvent = (type: string) =>
  defineWebhookEvent({ type, readScope: "projects:read", payload: ProjectEventData });

/** The webhook events the projects feature emits (docs/webhooks.md). */
export const projectEvents = {
  created: projectEvent("project.created"),
  updated: projectEvent("project.updated"),
  /** carries the project as it was just before deletion */
  deleted: projectEvent("project.deleted"),
};
