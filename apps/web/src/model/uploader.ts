/**
 * What the Uploader column, Info and the unfinished uploads in Profile say for an item an
 * anonymous holder of an editor link made: the server records no user for them (docs/protocol.md
 * `Item`, `uploaderId` null), and never the owner who handed out the link.
 */
export const ANONYMOUS_UPLOADER = 'Anonymous (via link)';
