import { t } from "elysia";
import { oneOf, ResponseInt } from "../../http/list-schemas.ts";
import { IfMatchHeader } from "../../http/versions.ts";
import { ALERT_SEVERITIES } from "./ingest-input.ts";
import { NOTE_LENGTH } from "./moves.ts";
import { ALERT_STATUSES } from "./service.ts";

/** Typebox schemas of the alert extension routes (docs/api.md). */

const Uuid = t.String({ format: "uuid" });
const At = (description?: string) => t.Nullable(t.String({ format: "date-time", description }));

/** One alert as GET /alerts/{id} answers it: the list's fields plus who moved it, when and why. */
export const AlertRecord = t.Object(
  {
    id: Uuid,
    source: t.String(),
    externalId: t.Nullable(t.String()),
    severity: oneOf(ALERT_SEVERITIES),
    status: oneOf(ALERT_STATUSES),
    title: t.String(),
    message: t.Nullable(t.String()),
    equipmentId: t.Nullable(Uuid),
    occurredAt: At("sender's time"),
    receivedAt: t.String({ format: "date-time" }),
    acknowledgedAt: At(),
    acknowledgedBy: t.Nullable(t.String({ format: "uuid", description: "a user id" })),
    acknowledgementNote: t.Nullable(t.String()),
    resolvedAt: At(),
    resolvedBy: t.Nullable(t.String({ format: "uuid", description: "a user id" })),
    resolutionNote: t.Nullable(t.String()),
    updatedAt: t.String({ format: "date-time", description: "when it last changed" }),
    version: ResponseInt({ minimum: 1, description: "+1 per change; the ETag" }),
  },
  { title: "AlertRecord" },
);

export const AlertIdParams = t.Object({ id: t.String({ description: "alert id (uuid)" }) });

export const NoteBody = t.Optional(
  t.Object(
    {
      note: t.Optional(
        t.String({ description: `why, up to ${NOTE_LENGTH.max} characters (not on reopen)` }),
      ),
    },
    { title: "AlertMove", description: "optional" },
  ),
);

export const MoveHeaders = t.Object({
  ...IfMatchHeader,
  "idempotency-key": t.Optional(t.String({ description: "replays the first response for 24 h" })),
});
