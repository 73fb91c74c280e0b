/**
 * Link mode (/share): the share link a screen browses through, for the parts deep inside it that
 * fetch on their own (thumbnails). Undefined everywhere else.
 */
import { createContext, useContext } from 'react';

export const LinkScope = createContext<string | undefined>(undefined);

export function useLinkScope(): string | undefined {
  return useContext(LinkScope);
}
