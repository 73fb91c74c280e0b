/**
 * Transfers keep no server state in the query cache: rows live in transfer-store.ts (they outlast
 * any screen), unfinished uploads in the crypto worker's IndexedDB. A finished upload
 * invalidates the files feature's listings and the auth feature's profile (its quota).
 */
export {};
