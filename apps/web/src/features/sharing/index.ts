/**
 * Sharing (SPEC 2 /share, SPEC 6): for now the link key of /share, opened in the crypto worker.
 * Sharing with named users and link management arrive with the sharing issue.
 */
export { useLinkKey, type LinkKeyState } from './useLinkKey.ts';
