/**
 * @sealbox/rules: the rules the server, the web app and the command-line client share, as pure
 * code (no DOM, no network, no server framework; it imports nothing outside itself): live event
 * kinds, who may change an item, where it may be moved, what it may be called, the texts both
 * sides say, the avatar types, the shape of TOTP recovery codes, the shapes of people, links and
 * unfinished uploads both read, and the one table of file types (README "Layout").
 */
export * from './avatars.ts';
export * from './events.ts';
export * from './file-types.ts';
export * from './messages.ts';
export * from './move.ts';
export * from './names.ts';
export * from './people.ts';
export * from './permissions.ts';
export * from './recovery-codes.ts';
export * from './share-links.ts';
export * from './unfinished-uploads.ts';
