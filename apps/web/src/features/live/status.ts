import { atom, useAtomValue } from 'jotai';
import type { LiveStatus } from './connection.ts';

/**
 * 'online' while the live socket is up; anything else means the lists poll (docs/product.md
 * "Limits" 5 s refresh).
 */
export const liveStatusAtom = atom<LiveStatus>('connecting');

export function useLiveStatus(): LiveStatus {
  return useAtomValue(liveStatusAtom);
}
