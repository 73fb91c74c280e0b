/**
 * `toEqual` on typed arrays, made fast under Bun: vitest lists every index of both arrays as a
 * string key (Object.keys) before it compares them, which takes seconds for the megabyte
 * plaintexts the worker tests compare in JavaScriptCore. Same answer, element by element with
 * Object.is as vitest does; typed arrays of different kinds, and DataViews, are left to vitest.
 * Own properties beside the elements, which nothing here sets on a typed array, are not compared.
 */
import { expect } from 'vitest';

type Elements = ArrayLike<number | bigint> & { constructor: unknown };

const isElements = (value: unknown): value is Elements => ArrayBuffer.isView(value) && !(value instanceof DataView);

expect.addEqualityTesters([
  function typedArrayEquality(a: unknown, b: unknown): boolean | undefined {
    if (!isElements(a) || !isElements(b) || a.constructor !== b.constructor) return undefined;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  },
]);
