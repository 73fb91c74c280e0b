import { useAtomValue } from 'jotai';
import { signedInAtom } from './session.ts';

/**
 * A protected page renders nothing from the moment the session ends here: signing out drops
 * the cached queries, and a page still mounted would fetch them again into a 401.
 */
export function signedInOnly(Page: () => React.ReactNode): () => React.ReactNode {
  return function SignedInOnly() {
    return useAtomValue(signedInAtom) ? <Page /> : null;
  };
}
