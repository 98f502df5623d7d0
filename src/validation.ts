import { type ErrorDetail, validationFailed } from "./errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/** Collects field problems and throws one `Validation failed` listing all of them. */
export class Problems {
  private readonly details: ErrorDetail[] = [];

  add(path: string[], message: string): this {
    this.details.push({ path, message });
    return this;
  }

  check(ok: boolean, path: string[], message: string): this {
    if (!ok) this.add(path, message);
    return this;
  }

  length(value: string, path: string[], min: number, max: number): this {
    const n = [...value].length;
    return this.check(
      n >= min && n <= max,
      path,
      min === max ? `Must be ${min} characters` : `Must be ${min} to ${max} characters`,
    );
  }

  throwIfAny(): void {
    if (this.details.length > 0) throw validationFailed(this.details);
  }
}
