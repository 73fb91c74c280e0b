/**
 * Transfers keep no server state in the query cache: rows live in upload-store.ts (they outlast
 * the overlay), unfinished uploads in the crypto worker's IndexedDB. A finished upload
 * invalidates the files feature's listings and the auth feature's profile (its quota).
 */
export {};
