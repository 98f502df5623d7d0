import { t } from "elysia";

export const ErrorDetailSchema = t.Object({
  path: t.Array(t.String(), { description: 'names the field, e.g. ["items", "0", "name"]' }),
  message: t.String(),
});

export const ErrorSchema = t.Object(
  {
    error: t.String({ description: "what went wrong, in plain words" }),
    details: t.Optional(t.Array(ErrorDetailSchema)),
  },
  { title: "Error" },
);

/** Response schemas every authenticated route can answer with besides its own success. */
export const authErrorResponses = {
  401: t.Composite([ErrorSchema], {
    description: "key missing, invalid, expired, revoked, or owner left the organization",
  }),
  403: t.Composite([ErrorSchema], {
    description: "missing scope or permission, plan without API access, or HTTPS required",
  }),
  500: t.Composite([ErrorSchema], {
    description: "unexpected server error; the cause is logged with the request id",
  }),
};

/** The 400 of routes that validate a query or body. */
export const validationErrorResponse = {
  400: t.Composite([ErrorSchema], {
    description: "Validation failed, with details naming each field",
  }),
};
