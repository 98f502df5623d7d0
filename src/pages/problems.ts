/** A form's field problems in the words of its labels (the key forms of the settings screen). */
const FIELD_NAMES: Record<string, string> = {
  name: "Name",
  scopes: "Scopes",
  expiresIn: "Expiration",
  allowedIps: "IP allowlist",
};

/** `input.scopes.2: Unknown scope: x` → `Scopes: Unknown scope: x`. */
export function describeProblem(detail: { path: string[]; message: string }): string {
  const name = detail.path.find((p) => p in FIELD_NAMES);
  return name ? `${FIELD_NAMES[name]}: ${detail.message}` : detail.message;
}
