/**
 * What a link's page says of itself (docs/web-files.md "The link visitor's page"): who shared
 * what, whether it is view only, and until when. The sharer's name is the server's word; an
 * anonymous visitor cannot check it (docs/protocol.md "Threats").
 */
import { expiryText, type LinkInfo } from '../../sharing/index.ts';

export const VIEW_ONLY_TEXT = 'View only';
export const CAN_EDIT_TEXT = 'Can edit';

/** "alice shared “Trip 2026”", or without a sharer "Shared with you: “Trip 2026”". */
export function linkTitle(sharedBy: string | null, name: string): string {
  return sharedBy ? `${sharedBy} shared “${name}”` : `Shared with you: “${name}”`;
}

/** The link's terms, one short fact each: its permission, then its expiry. */
export function linkFacts(info: Pick<LinkInfo, 'editPermission' | 'expiresAt'>, locale?: string): string[] {
  return [info.editPermission ? CAN_EDIT_TEXT : VIEW_ONLY_TEXT, expiryText(info.expiresAt, locale)];
}
