import type { RouteMatrix } from './context.ts';
import { full, SIGNED_IN, type Outcome, type Row } from './outcomes.ts';

/** SIGNED_IN with every signed-in caller's answer replaced by `outcome`. */
const signedInGets = (outcome: Outcome) =>
  full(Object.fromEntries(Object.entries(SIGNED_IN).map(([name, was]) => [name, was === 'ok' ? outcome : was])));

/**
 * The trash (docs/protocol.md "Trash"): the caller's own only. An item that is not in a trash is
 * not found there for anyone, its owner included (the matrix runs without TRASH_RETENTION_DAYS,
 * so nothing is in one); the trash suite covers what is.
 */
export function trashRows({ doc }: RouteMatrix): Row[] {
  return [
    { route: 'GET /api/trash', expect: SIGNED_IN, build: () => ({ path: '/api/trash' }) },
    {
      route: 'POST /api/trash/:id/restore',
      expect: signedInGets('not-found'),
      changes: true,
      target: async () => doc.id,
      build: (_c, id) => ({ path: `/api/trash/${id}/restore`, json: {} }),
    },
    {
      route: 'DELETE /api/trash/:id',
      expect: signedInGets('not-found'),
      changes: true,
      target: async () => doc.id,
      build: (_c, id) => ({ path: `/api/trash/${id}` }),
    },
    { route: 'DELETE /api/trash', expect: SIGNED_IN, build: () => ({ path: '/api/trash' }) },
  ];
}
