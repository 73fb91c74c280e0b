/**
 * Sharing (SPEC 2 /share, SPEC 6): the link key of /share, opened in the crypto worker, and a
 * link's access for its visitors (info, password prompt). Sharing with named users and link
 * management arrive with the rest of the sharing issue.
 */
export { useLinkKey, type LinkKeyState } from './useLinkKey.ts';
export { useLinkAccess, type LinkAccess } from './useLinkAccess.ts';
export { LinkPasswordPrompt } from './LinkPasswordPrompt.tsx';
export { INVALID_PASSWORD_TEXT, LINK_ERROR_TEXT, PASSWORD_PROMPT_TEXT, type LinkInfo } from './link-api.ts';
export { linkQueryOptions, sharingKeys } from './queries.ts';
