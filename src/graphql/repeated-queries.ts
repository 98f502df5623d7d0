import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import type { CompiledQuery } from "graphql-jit";
import { unsafeInputDetails } from "../input-safety.ts";
import type { GraphQLContext } from "./context.ts";
import { documentInputDetails } from "./input-guard-plugin.ts";
import { withinCost } from "./limits.ts";

/** A query Yoga has parsed, validated, compiled and answered without an error. */
interface Known {
  document: DocumentNode;
  operationName: string | undefined;
  compiled: CompiledQuery;
}

/** query texts longer than this are not kept (each is a key of the map below) */
const MAX_TEXT = 10_000;
/** known queries at most; the map starts again when full */
const MAX_KNOWN = 1_024;

/** What a POST body of a query is: its text, variables and operation name, nothing else. */
export interface QueryBody {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

/**
 * A body that is exactly a query, its variables and its operation name; anything else
 * (extensions, a batch, values of other types) is not one.
 */
export function queryBody(body: Record<string, unknown>): QueryBody | undefined {
  const { query, variables, operationName } = body;
  for (const name in body) {
    if (name !== "query" && name !== "variables" && name !== "operationName") return undefined;
  }
  if (typeof query !== "string" || query.length > MAX_TEXT) return undefined;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables)))
    return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  return {
    query,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: operationName ?? undefined,
  };
}

const keyOf = (text: string, operationName: string | undefined) =>
  `${operationName ?? ""}\n${text}`;

/**
 * A `/graphql` query that Yoga has already answered from its compiled code (repeat-compiler.ts)
 * is answered again without Yoga's pipeline (docs/decisions.md §42): the same checks Yoga's
 * plugins make before execution (the input guard, the cost limit for these variables), the same
 * compiled code, the same JSON. Whatever would not be a plain success (a check that refuses,
 * an answer with errors) is left to Yoga, which answers it as it always has.
 */
export class RepeatedQueries {
  private readonly known = new Map<string, Known>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** Called with a compiled query's clean answer: the next request of its text can skip Yoga. */
  remember(document: DocumentNode, operationName: string | undefined, compiled: CompiledQuery) {
    const text = document.loc?.source.body;
    if (text === undefined || text.length > MAX_TEXT) return;
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.set(keyOf(text, operationName), { document, operationName, compiled });
  }

  /**
   * The answer's JSON text when the query is known and answers without an error; undefined
   * when Yoga is to answer it.
   */
  async answer(body: QueryBody, context: GraphQLContext): Promise<string | undefined> {
    const known = this.known.get(keyOf(body.query, body.operationName));
    if (!known) return undefined;
    const variables = body.variables ?? {};
    if (documentInputDetails(known.document).length > 0) return undefined;
    if (unsafeInputDetails(variables).length > 0) return undefined;
    if (!withinCost(this.schema, known.document, known.operationName, variables)) return undefined;
    let result: ExecutionResult;
    try {
      result = await known.compiled.query(undefined, context, variables);
    } catch {
      return undefined; // graphql-jit reports errors in the result; Yoga words anything else
    }
    return result.errors ? undefined : JSON.stringify(result);
  }
}
