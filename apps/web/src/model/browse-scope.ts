/**
 * Where a screen browses, and so whose keys its items open with (docs/protocol.md "Key rings"):
 * the signed-in user's own tree (from the account root key down), what other users shared with
 * them (from each grant's key down), or one share link (from its fragment's key down).
 *
 * Every call that lists, opens, changes, uploads, previews or downloads an item names its scope.
 * The crypto worker keeps one key ring per scope, so a key that came from outside the own tree
 * (a grant or a link fragment) is used only for what was reached through it and can never stand
 * in for the key of one of the user's own items. Calls to the server derive their `?linkId=` from
 * the scope here, and the page's query keys name it, so nothing opened in one scope is shown in
 * another.
 */

export type BrowseScope =
  | { readonly kind: 'own' }
  | { readonly kind: 'shared' }
  | { readonly kind: 'link'; readonly linkId: string };

export const OWN_SCOPE: BrowseScope = Object.freeze({ kind: 'own' });
export const SHARED_SCOPE: BrowseScope = Object.freeze({ kind: 'shared' });

export function linkScope(linkId: string): BrowseScope {
  return { kind: 'link', linkId };
}

/** The link id a call in this scope carries to the server (only a link's). */
export function linkIdOf(scope: BrowseScope): string | undefined {
  return scope.kind === 'link' ? scope.linkId : undefined;
}

/** `{ linkId }` for a link's calls, `{}` otherwise: spread into a query string. */
export function scopeQuery(scope: BrowseScope): { linkId?: string } {
  return scope.kind === 'link' ? { linkId: scope.linkId } : {};
}

/** One string per scope: the worker's key ring and the page's query keys are named by it. */
export function scopeName(scope: BrowseScope): string {
  return scope.kind === 'link' ? `link:${scope.linkId}` : scope.kind;
}

/**
 * The scope a message names, checked: it crosses a worker boundary, and a call that names none
 * must fail rather than fall back to the signed-in user's own keys.
 */
export function checkedScope(value: unknown): BrowseScope {
  const scope = value as Partial<{ kind: unknown; linkId: unknown }> | null;
  if (scope?.kind === 'own') return OWN_SCOPE;
  if (scope?.kind === 'shared') return SHARED_SCOPE;
  if (scope?.kind === 'link' && typeof scope.linkId === 'string' && scope.linkId !== '') return linkScope(scope.linkId);
  throw new TypeError('A browse scope is required (own, shared or link)');
}
