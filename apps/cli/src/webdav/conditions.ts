/**
 * The If header (RFC 4918 10.4): lists of conditions, each a lock token or an entity tag,
 * optionally negated with Not, optionally tagged with the resource they are about. The header
 * holds when any list holds; a list holds when all its conditions do. A request whose If header
 * does not hold fails with 412 before anything changes. Read from at most 8 KiB of the header,
 * by hand (no pattern that can backtrack runs on it).
 */

export interface Condition {
  not: boolean;
  kind: 'token' | 'etag';
  value: string;
}

export interface ConditionList {
  /** The resource a tagged list is about (its URL's path), or undefined for the request's own. */
  tag: string | undefined;
  conditions: Condition[];
}

/** The lists of an If header; undefined when it cannot be read (400). */
export function parseIf(header: string): ConditionList[] | undefined {
  const text = header.slice(0, 8192);
  const lists: ConditionList[] = [];
  let tag: string | undefined;
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const until = (close: string): string | undefined => {
    const end = text.indexOf(close, at);
    if (end < 0) return undefined;
    const value = text.slice(at, end);
    at = end + 1;
    return value;
  };
  for (skipSpace(); at < text.length; skipSpace()) {
    const c = text[at++];
    if (c === '<') {
      const url = until('>');
      if (url === undefined) return undefined;
      try {
        tag = new URL(url, 'http://bridge.invalid').pathname;
      } catch {
        return undefined;
      }
      continue;
    }
    if (c !== '(') return undefined;
    const conditions: Condition[] = [];
    for (skipSpace(); text[at] !== ')'; skipSpace()) {
      if (at >= text.length) return undefined;
      let not = false;
      if (text.startsWith('Not', at)) {
        not = true;
        at += 3;
        skipSpace();
      }
      const open = text[at++];
      if (open === '<') {
        const value = until('>');
        if (value === undefined) return undefined;
        conditions.push({ not, kind: 'token', value });
      } else if (open === '[') {
        const value = until(']');
        if (value === undefined) return undefined;
        conditions.push({ not, kind: 'etag', value });
      } else return undefined;
    }
    at++;
    lists.push({ tag, conditions });
  }
  return lists;
}

/**
 * Whether the header holds: `tokenHeld(path, token)` says whether that lock covers the resource,
 * `etagOf(path)` gives a resource's entity tag (undefined: it does not exist).
 */
export async function ifHolds(
  lists: readonly ConditionList[],
  requestPath: string,
  tokenHeld: (path: string, token: string) => boolean,
  etagOf: (path: string) => Promise<string | undefined>,
): Promise<boolean> {
  for (const list of lists) {
    const path = list.tag ?? requestPath;
    let holds = true;
    for (const condition of list.conditions) {
      const met = condition.kind === 'token' ? tokenHeld(path, condition.value) : (await etagOf(path)) === condition.value;
      if (met === condition.not) {
        holds = false;
        break;
      }
    }
    if (holds) return true;
  }
  return false;
}
