/**
 * The previewer keeps nothing in the query cache: a file's bytes are decrypted when it is shown
 * and held by cache.ts (bounded, URLs revoked) only while the previewer is open.
 */
export {};
