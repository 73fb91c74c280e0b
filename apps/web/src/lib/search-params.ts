/**
 * Plain `?a=b` query strings instead of TanStack Router's JSON-in-URL default:
 * every search param of this app is a flat string, and ids such as "123" or
 * "true" must stay strings rather than turn into numbers or booleans.
 */
export function parseSearch(searchStr: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(searchStr)) {
    if (!(key in result)) result[key] = value; // first occurrence wins, like URLSearchParams.get
  }
  return result;
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, typeof value === 'string' ? value : String(value));
  }
  const str = params.toString();
  return str ? `?${str}` : '';
}

/** Reads one optional string param, dropping anything not matching `pattern`. */
export function optionalString(value: unknown, pattern?: RegExp): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return !pattern || pattern.test(value) ? value : undefined;
}

export function optionalEnum<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}
