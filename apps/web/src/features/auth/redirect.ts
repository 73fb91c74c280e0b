/** Where /login sends the user afterwards when no (valid) redirect is given. */
export const DEFAULT_AFTER_LOGIN = '/files';

export interface LocationParts {
  pathname: string;
  /** Including the leading '?', or empty. */
  searchStr: string;
  /** Without the leading '#', or empty. */
  hash: string;
}

/**
 * The full in-app address to come back to after login: path, query and hash.
 * The hash matters: a share link's key lives there.
 */
export function returnPathOf({ pathname, searchStr, hash }: LocationParts): string {
  return pathname + searchStr + (hash ? `#${hash}` : '');
}

/**
 * Only same-origin absolute paths are followed after login. '//host' and '/\host'
 * are protocol-relative in browsers and would make /login an open redirect.
 */
export function safeRedirectPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/')) return undefined;
  if (value.startsWith('//') || value.startsWith('/\\')) return undefined;
  // Control characters would let a value smuggle a different URL past the checks above.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  return value;
}
