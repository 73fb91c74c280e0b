import { Elysia } from 'elysia';
import { DomainError } from '../../domain/errors.ts';

/**
 * No body of this API nests deeper than three levels (registration's kdf parameters); eight
 * leaves room to grow. Schema validation is slow on deep input (a 180 KB body 30,000 levels deep
 * held the server for 11 s), so depth is refused before it runs.
 */
export const MAX_JSON_DEPTH = 8;

/** True when `value` holds objects or arrays nested more than `max` levels. Stops as soon as it knows. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  // Iterative, so a deep value cannot overflow the stack here either.
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth += 1) {
    const next: unknown[] = [];
    for (const node of level) {
      if (node === null || typeof node !== 'object') continue;
      if (depth >= max) return true;
      for (const child of Array.isArray(node) ? node : Object.values(node)) {
        if (child !== null && typeof child === 'object') next.push(child);
      }
    }
    level = next;
  }
  return false;
}

/**
 * Refuses a parsed body nested deeper than MAX_JSON_DEPTH with 400, on every route. Transform
 * runs after the caller is known (the session plugin checks in parse) and before validation.
 */
export function jsonDepth(max = MAX_JSON_DEPTH) {
  return new Elysia({ name: 'json-depth' }).onTransform({ as: 'global' }, ({ body }) => {
    if (nestedDeeperThan(body, max)) throw new DomainError('VALIDATION', `Request body nested deeper than ${max} levels`);
  });
}
