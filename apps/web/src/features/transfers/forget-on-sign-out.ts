/**
 * Signing out forgets the tab's transfers: the panel lists the user's plaintext file names, and
 * a failed row keeps its File, so a Retry after someone else signs in on this tab would upload
 * the first user's file into the second user's account. Running transfers are cancelled, open
 * duplicate-name questions answered "skip", and picks still being planned never start.
 */
import { onSignOut } from '../auth/index.ts';
import { dismissDuplicates } from './DuplicateNameDialog.tsx';
import { nextSignInGeneration } from './sign-in-generation.ts';
import { cancelTransfer, FINISHED, getState, resetTransfers } from './transfer-store.ts';

export function forgetTransfers(): void {
  nextSignInGeneration();
  dismissDuplicates();
  for (const row of getState().rows) if (!FINISHED.has(row.status)) cancelTransfer(row.key);
  resetTransfers();
}

onSignOut(forgetTransfers);
