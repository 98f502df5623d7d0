import { type ASTNode, type DocumentNode, Kind, visit } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ErrorDetail } from "../errors.ts";
import { validationFailed } from "../errors.ts";
import { textProblem, unsafeInputDetails } from "../input-safety.ts";

/**
 * /graphql's side of input-safety.ts: before execution, every string literal in the document's
 * arguments and every variable value is checked like a REST body, and a problem answers the
 * same `Validation failed` error (message, `extensions.details` with the field's path,
 * `extensions.status` 400) without running a resolver.
 */
export const inputGuardPlugin = (): Plugin => ({
  onExecute({ args, setResultAndStopExecution }) {
    const details = [
      ...documentInputDetails(args.document),
      ...unsafeInputDetails(args.variableValues ?? {}),
    ];
    if (details.length > 0) setResultAndStopExecution({ errors: [validationFailed(details)] });
  },
});

// a document's literals are checked once: Yoga's parser cache hands out one object per text
const literals = new WeakMap<DocumentNode, ErrorDetail[]>();

/** The problems in a document's string literals (none, for nearly every document). */
export function documentInputDetails(document: DocumentNode): ErrorDetail[] {
  let known = literals.get(document);
  if (!known) {
    known = literalDetails(document);
    literals.set(document, known);
  }
  return known;
}

/** Problems in string literals, each named by its argument and input-object field names. */
function literalDetails(document: ASTNode): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      const problem = textProblem(node.value);
      if (!problem) return;
      const path: string[] = [];
      // `ancestors` stops above the parent, which may itself be the field holding the string
      for (const ancestor of [...ancestors, parent]) {
        if (!ancestor || Array.isArray(ancestor)) continue;
        const named = ancestor as ASTNode;
        if (named.kind === Kind.ARGUMENT || named.kind === Kind.OBJECT_FIELD) {
          path.push(named.name.value);
        }
      }
      details.push({ path, message: problem });
    },
  });
  return details;
}
