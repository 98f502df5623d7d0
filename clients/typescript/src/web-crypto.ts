/**
 * Web Crypto: a global in browsers, Deno, Bun and Node ≥ 19. Node 18 has it only as
 * `node:crypto`'s `webcrypto` (the global needs a flag there), so it is loaded from there
 * when the global is missing.
 */
let found: Crypto | undefined;

export async function webCrypto(): Promise<Crypto> {
  if (found) return found;
  const global = (globalThis as { crypto?: Crypto }).crypto;
  if (global?.subtle && typeof global.randomUUID === "function") {
    found = global;
    return found;
  }
  // a variable specifier: bundlers building for browsers leave it alone (never reached there)
  const specifier = "node:crypto";
  const module = (await import(specifier)) as { webcrypto?: Crypto };
  if (!module.webcrypto) throw new Error("Web Crypto is not available in this runtime");
  found = module.webcrypto;
  return found;
}
