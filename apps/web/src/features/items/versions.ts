/**
 * A file's earlier versions (docs/protocol.md "Versions"): the list, restore and delete. The list
 * holds no keys: a version is downloaded through the crypto worker (transfers), which opens it
 * with the file's K and the version's own fileNonce.
 */
import { plaintextSize } from '@sealbox/crypto';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import { type BrowseScope, scopeName, scopeQuery } from '../../model/browse-scope.ts';

export interface FileVersion {
  id: string;
  /** Plaintext bytes. */
  size: number;
  /** Who uploaded that content; null for an anonymous link holder. */
  uploaderId: string | null;
  /** When that content was uploaded. */
  createdAt: number;
  /** When it stopped being the newest. */
  replacedAt: number;
}

/** The file's current content when the list was read: the list's "Current" entry. */
export interface CurrentContent {
  /** Plaintext bytes. */
  size: number;
  uploaderId: string | null;
  /** When it became current. */
  modifiedAt: number;
}

/** The current content and the earlier versions, from one answer so they never disagree. */
export interface FileVersions {
  current: CurrentContent;
  versions: FileVersion[];
}

export const versionsKeys = {
  /** Every scope's list of the file `id`'s versions (what a live `item.versions` makes stale). */
  of: (id: string) => ['versions', id] as const,
  list: (scope: BrowseScope, id: string) => ['versions', id, scopeName(scope)] as const,
};

const scoped = (scope: BrowseScope) => (scope.kind === 'link' ? { query: scopeQuery(scope) } : {});

/**
 * GET /api/file/{id}/versions: the current content, then the earlier versions newest first. Info
 * shows both from this answer rather than the current from the listing, which a restore updates
 * at another moment.
 */
export async function fetchVersions(scope: BrowseScope, id: string): Promise<FileVersions> {
  const { data, error, status } = await api.api.file({ id }).versions.get(scoped(scope));
  if (error) throw new HttpStatusError(status, 'Error fetching versions.');
  const { current } = data;
  return {
    current: { size: plaintextSize(current.size), uploaderId: current.uploaderId, modifiedAt: current.modifiedAt },
    versions: data.versions.map((v) => ({
      id: v.id,
      size: plaintextSize(v.size),
      uploaderId: v.uploaderId,
      createdAt: v.createdAt,
      replacedAt: v.replacedAt,
    })),
  };
}

export function versionsQueryOptions(scope: BrowseScope, id: string) {
  return queryOptions({
    queryKey: versionsKeys.list(scope, id),
    queryFn: () => fetchVersions(scope, id),
    retry: (count, error) => !(error instanceof HttpStatusError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

/** POST .../restore: that version becomes the newest content, the newest a version. */
export async function restoreVersion(scope: BrowseScope, id: string, versionId: string): Promise<void> {
  const { error, status } = await api.api.file({ id }).versions({ versionId }).restore.post(undefined, scoped(scope));
  if (error) throw new HttpStatusError(status, 'Error restoring version. Please try again later.');
}

/** DELETE .../versions/{versionId} (the owner): its bytes are freed. */
export async function deleteVersion(scope: BrowseScope, id: string, versionId: string): Promise<void> {
  const { error, status } = await api.api.file({ id }).versions({ versionId }).delete(undefined, scoped(scope));
  if (error) throw new HttpStatusError(status, 'Error deleting version. Please try again later.');
}
