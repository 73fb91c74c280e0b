/**
 * The two public link calls of docs/protocol.md ("Sharing"): `GET /api/shared/{linkId}` (link
 * info; 401 while the link's password is needed) and `POST /api/shared/{linkId}` `{ password }`
 * (the access proof arrives as an HttpOnly cookie scoped to /api, so later files calls carry it).
 * Neither ever carries the link key: that stays in the URL fragment and the crypto worker.
 */
import { api } from '../../../lib/api.ts';
import { HttpStatusError } from '../../../lib/http-status-error.ts';

/** In the server's words (@sealbox/rules): its 401 says the first, a wrong password the second. */
export {
  LINK_PASSWORD_PROMPT_TEXT as PASSWORD_PROMPT_TEXT,
  LINK_PASSWORD_WRONG_TEXT as INVALID_PASSWORD_TEXT,
} from '@sealbox/rules';
export const LINK_ERROR_TEXT = 'Error retrieving files.';

/** What the link call answers: the link, whether its item is a folder, and who shared it. */
export interface LinkInfo {
  linkId: string;
  itemId: string;
  isDirectory: boolean;
  editPermission: boolean;
  /** Epoch ms; null: never. */
  expiresAt: number | null;
  /**
   * The username of the account that shared it, as the server states it: nothing the browser can
   * check (docs/protocol.md "Threats"). Null when the server names nobody.
   */
  sharedBy: string | null;
}

export type LinkAnswer = { status: 'open'; info: LinkInfo } | { status: 'password' };

function infoOf(data: unknown): LinkInfo {
  const value = data as Partial<LinkInfo> | null;
  if (!value || typeof value.itemId !== 'string' || typeof value.linkId !== 'string')
    throw new HttpStatusError(502, LINK_ERROR_TEXT);
  return {
    linkId: value.linkId,
    itemId: value.itemId,
    isDirectory: value.isDirectory === true,
    editPermission: value.editPermission === true,
    expiresAt: typeof value.expiresAt === 'number' && Number.isFinite(value.expiresAt) ? value.expiresAt : null,
    sharedBy: typeof value.sharedBy === 'string' && value.sharedBy !== '' ? value.sharedBy : null,
  };
}

/** GET /api/shared/{linkId}: the link, or that its password is needed first. */
export async function fetchLink(linkId: string): Promise<LinkAnswer> {
  const { data, status } = await api.api.shared({ id: linkId }).get();
  if (status === 401) return { status: 'password' };
  if (status < 200 || status >= 300 || !data) throw new HttpStatusError(status, LINK_ERROR_TEXT);
  return { status: 'open', info: infoOf(data) };
}

/** POST /api/shared/{linkId}: undefined on a wrong password (401). */
export async function unlockLink(linkId: string, password: string): Promise<LinkInfo | undefined> {
  const { data, status } = await api.api.shared({ id: linkId }).post({ password });
  if (status === 401) return undefined;
  if (status < 200 || status >= 300 || !data) throw new HttpStatusError(status, LINK_ERROR_TEXT);
  return infoOf(data);
}
