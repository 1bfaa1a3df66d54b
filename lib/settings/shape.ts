/**
 * Structural guards: how a page tells a stored value in the current shape from anything else
 * without loading zod (docs/architecture.md, "Storage"). They check types and fields, not the
 * finer rules (lengths, patterns) that zod checks on every write: storage holds only what a write,
 * a migration or an import let through, so a value that has the right structure is ours. A value
 * that does not (corrupted, or written by a newer version before a downgrade) reads as missing.
 */

/** True when `value` has the shape. */
export type Shape = (value: unknown) => boolean;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const string: Shape = (value) => typeof value === 'string';
export const number: Shape = (value) => typeof value === 'number' && Number.isFinite(value);
export const boolean: Shape = (value) => typeof value === 'boolean';

export const matching =
  (pattern: RegExp): Shape =>
  (value) =>
    typeof value === 'string' && pattern.test(value);

export const oneOf =
  (...choices: readonly unknown[]): Shape =>
  (value) =>
    choices.includes(value);

/** Of one of `shapes`. */
export const anyOf =
  (...shapes: Shape[]): Shape =>
  (value) =>
    shapes.some((shape) => shape(value));

export const nullable =
  (shape: Shape): Shape =>
  (value) =>
    value === null || shape(value);

export const arrayOf =
  (shape: Shape): Shape =>
  (value) =>
    Array.isArray(value) && value.every(shape);

export const tuple =
  (...shapes: Shape[]): Shape =>
  (value) =>
    Array.isArray(value) && value.length === shapes.length && shapes.every((shape, i) => shape(value[i]));

/** An object used as a map: any keys, each value of `shape`. */
export const recordOf =
  (shape: Shape): Shape =>
  (value) =>
    isRecord(value) && Object.values(value).every(shape);

/**
 * An object with `fields` (each present and of its shape) and `optional` ones (absent, undefined,
 * or of their shape). Other fields are allowed: a newer version may have added one.
 */
export const object =
  (fields: Record<string, Shape>, optional: Record<string, Shape> = {}): Shape =>
  (value) =>
    isRecord(value) &&
    Object.entries(fields).every(([name, shape]) => shape(value[name])) &&
    Object.entries(optional).every(([name, shape]) => value[name] === undefined || shape(value[name]));
