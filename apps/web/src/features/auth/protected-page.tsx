import { useAtomValue } from 'jotai';
import { requireSignedIn } from './guard.ts';
import { signedInAtom } from './session.ts';

/**
 * The route options of every protected screen: signed-out visitors are sent to /login before it
 * loads, and it renders nothing from the moment the session ends here (signing out drops the
 * cached queries, and a page still mounted would fetch them again into a 401).
 */
export function protectedPage(Page: () => React.ReactNode) {
  function SignedInOnly() {
    return useAtomValue(signedInAtom) ? <Page /> : null;
  }
  return { beforeLoad: requireSignedIn, component: SignedInOnly };
}
