/** Names in the OpenAPI document that generated clients and readers see. */
export interface OpenApiNames {
  /**
   * `"GET /api/v1/tickets": "listTickets"`: the names client generators turn into method
   * names; changing one is a breaking change. A route without one gets a derived name.
   */
  operationIds: Record<string, string>;
  /** a tag's description, shown above its routes */
  tags: Record<string, string>;
}

/** Every feature's names in one (src/features.ts). */
export function mergeOpenApiNames(all: readonly Partial<OpenApiNames>[]): OpenApiNames {
  const merged: OpenApiNames = { operationIds: {}, tags: {} };
  for (const names of all) {
    Object.assign(merged.operationIds, names.operationIds);
    Object.assign(merged.tags, names.tags);
  }
  return merged;
}
