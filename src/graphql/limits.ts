import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
} from "graphql";
import { type ComplexityEstimatorArgs, getComplexity } from "graphql-query-complexity";
import type { Plugin } from "graphql-yoga";

/**
 * Limits on what one /graphql request may cost the service: its shape (tokens, aliases,
 * directives, depth), the work it asks for (cost, with list fields multiplied by their page
 * size) and the size of its answer. The numbers are documented in docs/security.md.
 */
export const GRAPHQL_LIMITS = {
  /** lexical tokens in the document; refused while parsing, before any AST is built */
  maxTokens: 2_000,
  /** aliased fields in one operation (fragments included); `__typename` aliases are free */
  maxAliases: 15,
  maxDirectives: 50,
  maxDepth: 10,
  /** see `fieldCost` */
  maxCost: 10_000,
  /** an introspection `__schema` (the whole schema, whatever is selected) */
  schemaCost: 2_000,
  /** an introspection `__type(name:)` */
  typeCost: 100,
  /**
   * fields the cost check expands (fragments spread in place); a document larger than this
   * cannot be measured and is refused
   */
  maxCostNodes: 10_000,
  /**
   * each item of a list given to a mutation (written rows): one request writes about 200
   * items at most, one full bulk creation of 100 and change
   */
  writeItemCost: 50,
  /**
   * each row of a change-feed page (`changes`): a feed row and its record, read in the same
   * statement, whose fields are columns of that row. The feed's records hold only scalar
   * fields (tests/graphql/change-feed-cost.test.ts fails otherwise), so what one row can carry
   * is bounded by the schema and the alias limit, and the row is counted as a row rather than
   * field by field: the full 1,000-row page (the REST maximum) costs about 8,030, once per request
   */
  changeRowCost: 8,
  /** the page size of a list field called without `limit` (the API's default) */
  defaultPageSize: 50,
  /** characters of the JSON answer (about its bytes); larger answers are replaced by an error */
  maxAnswerChars: 5 * 1024 * 1024,
} as const;

/** A 400 the way GraphQL clients read it: `{ errors: [{ message, extensions }] }`. */
export const limitError = (message: string, code: string) =>
  new GraphQLError(message, { extensions: { code, http: { status: 400 } } });

/**
 * One point per field, plus: a field taking a `limit` (a page of a list) costs its selection
 * times that page size, given or defaulted, so `equipments(limit: 200) { data { id } }` costs
 * about 400; a change-feed page costs `changeRowCost` per row plus its selection once;
 * introspection costs what answering it costs, the size of the schema.
 */
export function fieldCost({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number {
  if (type.name === "Mutation") {
    return 1 + childComplexity + GRAPHQL_LIMITS.writeItemCost * listItems(args);
  }
  if (field.name === "__schema") return GRAPHQL_LIMITS.schemaCost + childComplexity;
  if (field.name === "__type") return GRAPHQL_LIMITS.typeCost + childComplexity;
  const hasLimit = field.args.some((arg) => arg.name === "limit");
  if (!hasLimit) return 1 + childComplexity;
  const limit = typeof args.limit === "number" ? args.limit : GRAPHQL_LIMITS.defaultPageSize;
  // an out-of-range limit is refused by the resolver; it still must not make the cost negative
  const rows = Math.max(1, limit);
  if (type.name === "Query" && field.name === "changes") {
    return 1 + childComplexity + GRAPHQL_LIMITS.changeRowCost * rows;
  }
  return 1 + childComplexity * rows;
}

/** Items of every list inside a mutation's arguments (`input.items`, nested lists too). */
function listItems(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + 1 + listItems(item), 0);
  if (value && typeof value === "object") {
    return Object.values(value).reduce((n: number, item) => n + listItems(item), 0);
  }
  return 0;
}

/** True when the variables do not coerce: execution then refuses them in GraphQL's words. */
function variablesRefused(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation) return true;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  return "errors" in coerced && !!coerced.errors?.length;
}

const costRefusal = (message: string) => ({ errors: [limitError(message, "COST_LIMIT")] });

/** variable sets remembered per document, and the longest key kept (a bulk write is not) */
const COSTS_PER_DOCUMENT = 32;
const COST_KEY_CHARS = 1_024;

/**
 * Costs already measured, per parsed document and then per operation name and variables: a
 * dashboard's repeated query is walked once, not on every request. Yoga's parser cache hands
 * out one document object per text, so the entries live and die with its (bounded) entries.
 */
const measured = new WeakMap<DocumentNode, Map<string, number>>();

function measuredCost(
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
  measure: () => number,
): number {
  const key = `${operationName ?? ""}\n${JSON.stringify(variables)}`;
  if (key.length > COST_KEY_CHARS) return measure();
  const costs = measured.get(document) ?? new Map<string, number>();
  const known = costs.get(key);
  if (known !== undefined) return known;
  const cost = measure();
  measured.set(document, costs);
  if (costs.size >= COSTS_PER_DOCUMENT) costs.clear();
  costs.set(key, cost);
  return cost;
}

/** The cost of an operation with these variables (throws when it cannot be measured). */
const costOf = (
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
) =>
  measuredCost(document, operationName, variables, () =>
    getComplexity({
      schema,
      query: document,
      variables,
      operationName,
      estimators: [fieldCost],
      maxQueryNodes: GRAPHQL_LIMITS.maxCostNodes,
    }),
  );

/** Whether the cost plugin below lets the operation run with these variables as it is. */
export function withinCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): boolean {
  try {
    return costOf(schema, document, operationName, variables) <= GRAPHQL_LIMITS.maxCost;
  } catch {
    return false;
  }
}

/**
 * The cost check runs when the operation is about to execute, because only then are the
 * variables known (`limit: $n`); a validation rule would also be cached by document alone.
 * A document the cost library cannot measure (past its node cap) is refused, never run
 * unchecked.
 */
const costPlugin: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const operationName = args.operationName ?? undefined;
    let cost: number;
    try {
      cost = costOf(args.schema, args.document, operationName, variables);
    } catch {
      if (variablesRefused(args.schema, args.document, operationName, variables)) return;
      setResultAndStopExecution(
        costRefusal(
          `Query too large to measure: more than ${GRAPHQL_LIMITS.maxCostNodes} fields once ` +
            "fragments are expanded; ask for fewer fields, fragments or aliases",
        ),
      );
      return;
    }
    if (cost > GRAPHQL_LIMITS.maxCost) {
      setResultAndStopExecution(
        costRefusal(
          `Query cost ${cost} exceeds the limit of ${GRAPHQL_LIMITS.maxCost}; ` +
            "ask for smaller pages (limit), fewer fields, fewer aliases or fewer items to write",
        ),
      );
    }
  },
};

/** Rejections by graphql-armor carry its own wording; they get a 400 like the cost limit. */
const onReject = [
  (_context: unknown, error: GraphQLError) => {
    (error.extensions as Record<string, unknown>).http = { status: 400 };
  },
];

export const graphqlLimitPlugins = (): Plugin[] => [
  maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens, onReject }) as Plugin,
  maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, onReject }) as Plugin,
  maxDirectivesPlugin({ n: GRAPHQL_LIMITS.maxDirectives, onReject }) as Plugin,
  maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, onReject }) as Plugin,
  costPlugin,
];
