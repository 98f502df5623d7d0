import type { GraphQLResolveInfo, SelectionSetNode } from "graphql";

/**
 * Whether the caller's query selects the field at `path` under the resolver's field (e.g.
 * `["data", "description"]` under `tickets`), through fragments too. A resolver uses it to read
 * a costly column only when the answer shows it.
 */
export function selects(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  return info.fieldNodes.some((node) => within(info, node.selectionSet, path));
}

function within(
  info: GraphQLResolveInfo,
  set: SelectionSetNode | undefined,
  path: readonly string[],
): boolean {
  if (!set) return false;
  const [name, ...rest] = path;
  for (const selection of set.selections) {
    if (selection.kind === "Field") {
      if (selection.name.value !== name) continue;
      if (rest.length === 0 || within(info, selection.selectionSet, rest)) return true;
    } else if (selection.kind === "InlineFragment") {
      if (within(info, selection.selectionSet, path)) return true;
    } else {
      const fragment = info.fragments[selection.name.value];
      if (within(info, fragment?.selectionSet, path)) return true;
    }
  }
  return false;
}
