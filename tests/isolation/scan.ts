/**
 * Finds every query site in src/ that touches organization data, so a new one cannot slip in
 * without an isolation test (tests/isolation/registry.ts). A site is `file#function`: the
 * named function, method (`Class.method`) or object property that holds a Drizzle query on an
 * organization table (`.from`, `.update`, `.delete`, `.insert`, a join, `db.query.<table>`) or
 * raw SQL naming one (`from|join|update|into <table>`).
 * Organization tables are read from src/db/schema: every table with an `organizationId`
 * column, plus the children whose rows belong to one organization through a parent.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "../..");
const SCHEMA_DIR = join(ROOT, "src/db/schema");

/**
 * Tables without an organization_id column whose rows still belong to one organization: a
 * delivery through its subscription, a group member through its group, an idempotency record
 * through its API key.
 */
export const OWNED_THROUGH_PARENT = ["webhookDeliveries", "groupMembers", "idempotencyKeys"];

export interface OrgTable {
  /** the exported Drizzle table, e.g. `webhookSubscriptions` */
  name: string;
  /** its SQL name, e.g. `webhook_subscriptions` */
  sqlName: string;
}

/** Each pgTable in src/db/schema that holds organization data. */
export function organizationTables(): OrgTable[] {
  const tables: OrgTable[] = [];
  for (const file of readdirSync(SCHEMA_DIR)) {
    const text = readFileSync(join(SCHEMA_DIR, file), "utf8");
    // `export const name = pgTable(\n  "sql_name", {...})`, up to the next table of the file
    const starts = [...text.matchAll(/export const (\w+) = pgTable\(\s*"(\w+)"/g)];
    starts.forEach((match, i) => {
      const body = text.slice(match.index, starts[i + 1]?.index ?? text.length);
      const name = match[1] as string;
      const sqlName = match[2] as string;
      if (/\borganizationId\s*:/.test(body) || OWNED_THROUGH_PARENT.includes(name)) {
        tables.push({ name, sqlName });
      }
    });
  }
  return tables.sort((a, b) => a.name.localeCompare(b.name));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === SCHEMA_DIR ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const QUERY_METHODS = new Set([
  "from",
  "update",
  "delete",
  "insert",
  "innerJoin",
  "leftJoin",
  "rightJoin",
  "fullJoin",
]);

/**
 * The name of the function, method or property the node sits in; at top level, the constant
 * it helps define (a shared SQL fragment), else `<module>`.
 */
function enclosingName(node: ts.Node): string {
  let constant: string | undefined;
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name)) constant ??= at.name.text;
    if (ts.isFunctionDeclaration(at) && at.name) return at.name.text;
    if ((ts.isMethodDeclaration(at) || ts.isGetAccessor(at)) && ts.isIdentifier(at.name)) {
      const owner = at.parent;
      if (ts.isClassLike(owner) && owner.name) return `${owner.name.text}.${at.name.text}`;
      return at.name.text;
    }
    if (ts.isArrowFunction(at) || ts.isFunctionExpression(at)) {
      const holder = at.parent;
      if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
      if (ts.isPropertyAssignment(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
    }
  }
  return constant ?? "<module>";
}

export interface QuerySite {
  /** `src/modules/tickets/queries.ts#insertTicket` */
  id: string;
  tables: string[];
}

const isTemplateText = (node: ts.Node) =>
  ts.isNoSubstitutionTemplateLiteral(node) ||
  ts.isTemplateHead(node) ||
  ts.isTemplateMiddle(node) ||
  ts.isTemplateTail(node);

/** Every function in src/ (schema aside) that queries an organization table. */
export function organizationQuerySites(): QuerySite[] {
  const tables = organizationTables();
  const byName = new Set(tables.map((t) => t.name));
  const rawSql = new RegExp(
    `\\b(?:from|join|update|into)\\s+(${tables.map((t) => t.sqlName).join("|")})\\b`,
    "gi",
  );
  const sites = new Map<string, Set<string>>();
  const add = (file: string, node: ts.Node, table: string) => {
    const id = `${relative(ROOT, file)}#${enclosingName(node)}`;
    const set = sites.get(id) ?? new Set<string>();
    set.add(table);
    sites.set(id, set);
  };
  for (const file of sourceFiles(join(ROOT, "src"))) {
    const text = readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const [first] = node.arguments;
        if (
          QUERY_METHODS.has(method) &&
          first &&
          ts.isIdentifier(first) &&
          byName.has(first.text)
        ) {
          add(file, node, first.text);
        }
      }
      // db.query.<table>.findFirst/findMany (Drizzle's relational queries)
      if (
        ts.isPropertyAccessExpression(node) &&
        byName.has(node.name.text) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === "query"
      ) {
        add(file, node, node.name.text);
      }
      // sql`update ${apiKeys} set …`: a table interpolated into raw SQL
      if (
        ts.isTemplateSpan(node) &&
        ts.isIdentifier(node.expression) &&
        byName.has(node.expression.text)
      ) {
        add(file, node, node.expression.text);
      }
      if (isTemplateText(node)) {
        const literal = node as ts.TemplateLiteralLikeNode;
        for (const match of literal.text.matchAll(rawSql)) {
          const table = tables.find((t) => t.sqlName === match[1]?.toLowerCase());
          if (table) add(file, node, table.name);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...sites]
    .map(([id, set]) => ({ id, tables: [...set].sort() }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

if (import.meta.main) {
  console.log(
    organizationTables()
      .map((t) => t.name)
      .join(", "),
  );
  for (const site of organizationQuerySites()) console.log(site.id, site.tables.join(","));
}
