import type { Browser } from '../files/harness.ts';

/**
 * Who calls and what they get (docs/protocol.md "Sharing", "Every route, by construction"): the
 * callers of the route matrix, the outcome each kind of route gives each of them, and the shape
 * of a row. `coverageProblems` holds the rows against the app's own route table.
 */

export const CALLERS = [
  'owner',
  'editor',
  'viewer',
  'revoked user',
  'stranger',
  'viewer link',
  'editor link',
  'expired link',
  'password link without its proof',
  'link used outside its subtree',
  'no session',
  'TOTP-pending session',
] as const;
export type CallerName = (typeof CALLERS)[number];

/** The class of an answer: 'ok' is any 2xx; a number is that exact status. */
export type Outcome = 'ok' | 'unauthorized' | 'forbidden' | 'not-found' | number;
export const STATUS: Record<Exclude<Outcome, 'ok' | number>, number> = { unauthorized: 401, forbidden: 403, 'not-found': 404 };

export type Expect = Record<CallerName, Outcome>;

export const each = (outcome: Outcome, names: readonly CallerName[] = CALLERS) =>
  Object.fromEntries(names.map((n) => [n, outcome])) as Partial<Expect>;
export const USERS: CallerName[] = ['owner', 'editor', 'viewer', 'revoked user', 'stranger'];
const LINKS: CallerName[] = [
  'viewer link',
  'editor link',
  'expired link',
  'password link without its proof',
  'link used outside its subtree',
];
const BAD_LINKS: CallerName[] = ['expired link', 'password link without its proof', 'link used outside its subtree'];
export const full = (e: Partial<Expect>): Expect => {
  for (const name of CALLERS) if (e[name] === undefined) throw new Error(`no outcome for ${name}`);
  return e as Expect;
};

/** Open to anyone, session or not (a session, even a half one, is ignored). */
export const PUBLIC = full(each('ok'));
/** The caller's own account: any signed-in user; link holders have no session. */
export const SIGNED_IN = full({ ...each('unauthorized'), ...each('ok', USERS) });
/** Reading an item of the owner's shared folder W (a principal route: links may call it). */
export const ITEM_READ = full({
  owner: 'ok',
  editor: 'ok',
  viewer: 'ok',
  'revoked user': 'not-found',
  stranger: 'not-found',
  'viewer link': 'ok',
  'editor link': 'ok',
  ...each('not-found', BAD_LINKS),
  'no session': 'unauthorized',
  'TOTP-pending session': 'unauthorized',
});
/** Changing W's contents: read access is 403, no access 404. */
export const ITEM_WRITE = full({ ...ITEM_READ, viewer: 'forbidden', 'viewer link': 'forbidden' });
/** Sharing W: the owner only; sharing needs a session, so link holders get 401. */
export const ITEM_SHARE = full({
  ...each('unauthorized'),
  owner: 'ok',
  editor: 'forbidden',
  viewer: 'forbidden',
  'revoked user': 'not-found',
  stranger: 'not-found',
});
/** The owner's own upload in progress, or own session: anyone else's answers 404 alike. */
export const OWNERS_ONLY = full({ ...ITEM_READ, ...each('not-found', [...USERS, ...LINKS]), owner: 'ok' });
/** Without an id: the caller's own top level, or the item a live link points to. */
export const OWN_VIEW = full({ ...ITEM_READ, ...each('ok', USERS), 'link used outside its subtree': 'ok' });
export const OWN_SESSION = full({ ...SIGNED_IN, ...each('not-found', USERS), owner: 'ok' });

/** With a random id in place of the fixture's: 401 stays 401, anything else is 404. */
export const missingOf = (e: Expect): Expect =>
  Object.fromEntries(CALLERS.map((n) => [n, e[n] === 'unauthorized' ? 'unauthorized' : 'not-found'])) as Expect;

export interface Spec {
  path: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /**
   * A batch call of one item (docs/protocol.md "Batch changes"): it answers 200 with that item's
   * result, so its refusal's status stands for the answer.
   */
  batch?: boolean;
  /** A WebSocket upgrade (GET /api/ws): sent over TCP to a listening app, 101 when admitted. */
  upgrade?: boolean;
}

export interface Caller {
  name: CallerName;
  browser: Browser;
  linkId?: string;
}

export interface Row {
  /** `METHOD /path` exactly as the app's route table has it. */
  route: string;
  /** Which of several rows of one route (another body or query). */
  label?: string;
  expect: Expect;
  /** Routes that name an item (or upload, session, link): the fixture's id, fresh for a call expected to succeed. */
  target?: (fresh: boolean) => Promise<string>;
  /** What a random id answers; defaults to 404 for everyone the row does not answer 401. */
  missing?: Expect;
  /** A random id of the right shape; defaults to a random UUID. */
  randomId?: () => string;
  /** Refused calls must leave the database and blobs as they were. */
  changes?: boolean;
  /** Ends or replaces the caller's session (login, logout): run after every other row. */
  terminal?: boolean;
  build: (caller: Caller, id: string) => Spec | Promise<Spec>;
}

export const routeOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** What is wrong between the app's routes and the rows, one line each. */
export function coverageProblems(routes: Array<{ method: string; path: string }>, rows: Array<{ route: string }>): string[] {
  const have = new Set(routes.map(routeOf));
  const covered = new Set(rows.map((r) => r.route));
  return [
    ...[...have].filter((r) => !covered.has(r)).map((r) => `add a row for ${r}`),
    ...[...covered].filter((r) => !have.has(r)).map((r) => `the row for ${r} names no route of the app: remove it`),
  ];
}
