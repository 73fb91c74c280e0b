/**
 * Info's Versions section (issue 25, docs/web-files.md "Versions"): the current content and every
 * earlier version, each with its date, size and uploader; Preview (the previewer, fed that
 * version's bytes), Download (decrypted in the download
 * service worker with the version's own nonce), Restore (it becomes current, the others stay) and,
 * for the owner, Delete. A live `item.versions` refreshes the open list (features/live).
 */
import { useState } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { shownUsername } from '../../model/item-names.ts';
import { Button, Dialog, Spinner, toast } from '@sealbox/ui';
import { HttpStatusError } from '../../lib/http-status-error.ts';
import type { ItemView } from '../../model/items.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { Previewer, detectKind } from '../preview/index.ts';
import { deleteVersion, filesKeys, restoreVersion, versionsKeys, versionsQueryOptions } from '../items/index.ts';
import { downloadVersion, downloadItems } from '../transfers/index.ts';
import { displayName, formatBytes, formatMoment } from './format.ts';
import { useBrowseScope } from './scope-context.ts';
import { deletesVersions, versionEntries, type VersionEntry } from './version-list.ts';

/**
 * Names of uploaders the listing does not name (an editor whose content is no longer current):
 * GET /api/user/{id}, signed in only (a link visitor keeps "Unknown").
 */
function useUploaderNames(ids: ReadonlyArray<string | null>, known: (id: string) => boolean, signedIn: boolean) {
  const missing = [...new Set(ids.filter((id): id is string => id !== null && !known(id)))];
  const answers = useQueries({
    queries: missing.map((id) => ({
      queryKey: ['user', id] as const,
      queryFn: async () => {
        const { data, error } = await api.api.user({ id }).get();
        if (error) throw error;
        return shownUsername(data.username);
      },
      enabled: signedIn,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    })),
  });
  return new Map(missing.flatMap((id, i) => (answers[i]?.data ? [[id, answers[i].data] as const] : [])));
}

type Confirm = { kind: 'restore' | 'delete'; entry: VersionEntry & { versionId: string } } | undefined;

const DOWNLOAD_FAILED = 'Error downloading file/folder. Please try again.';

export function VersionsSection({
  item,
  myUserId,
  who,
  knows,
}: {
  item: ItemView;
  myUserId: string | undefined;
  /** A user's name as Info says it ('alice (you)', 'Anonymous (via link)'). */
  who: (id: string | null) => string;
  /** Whether `who` has a name for this user (the listing named them). */
  knows: (id: string) => boolean;
}) {
  const scope = useBrowseScope();
  const queryClient = useQueryClient();
  const versions = useQuery(versionsQueryOptions(scope, item.id));
  const [confirm, setConfirm] = useState<Confirm>();
  const [previewing, setPreviewing] = useState<VersionEntry>();
  const previewable = detectKind(item) !== 'unsupported';
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: versionsKeys.of(item.id) }),
      queryClient.invalidateQueries({
        queryKey: scope.kind === 'link' ? filesKeys.linkAll(scope.linkId) : filesKeys.folderInAnyScope(item.parentId),
      }),
      // The space a deleted version held comes back.
      queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
    ]);
  const change = useMutation({
    mutationFn: async ({ kind, entry }: NonNullable<Confirm>) => {
      if (kind === 'restore') await restoreVersion(scope, item.id, entry.versionId);
      else await deleteVersion(scope, item.id, entry.versionId);
    },
    onSuccess: async (_, { kind, entry }) => {
      setConfirm(undefined);
      toast(
        kind === 'restore'
          ? `Restored the version of ${formatMoment(entry.at)}`
          : `Deleted the version of ${formatMoment(entry.at)}`,
        'success',
      );
      await refresh();
    },
    onError: (error, { kind }) =>
      toast(
        error instanceof HttpStatusError
          ? error.message
          : kind === 'restore'
            ? 'Error restoring version. Please try again later.'
            : 'Error deleting version. Please try again later.',
        'error',
      ),
  });
  const download = (entry: VersionEntry) => {
    const started = entry.versionId ? downloadVersion(item, entry.versionId, scope) : downloadItems([item], scope);
    void started.catch(() => toast(DOWNLOAD_FAILED, 'error'));
  };
  const canDelete = deletesVersions(item, myUserId);
  const entries = versions.data ? versionEntries(versions.data) : [];
  const fetchedNames = useUploaderNames(
    entries.map((entry) => entry.uploaderId),
    knows,
    myUserId !== undefined,
  );
  const uploader = (id: string | null) => {
    const name = id === null ? undefined : fetchedNames.get(id);
    return name === undefined ? who(id) : `${name}${id === myUserId ? ' (you)' : ''}`;
  };

  return (
    <section className="versions" aria-labelledby="versions-heading">
      <h3 id="versions-heading" className="versions__heading">
        Versions
      </h3>
      {versions.isPending ? (
        <p className="versions__note">
          <Spinner size={16} /> Loading versions...
        </p>
      ) : versions.isError ? (
        <p className="versions__note" role="alert">
          {versions.error instanceof HttpStatusError ? versions.error.message : 'Error fetching versions.'}
        </p>
      ) : (
        <>
          <ul className="versions__list" aria-label="Versions">
            {entries.map((entry) => {
              const earlier = entry.versionId === null ? undefined : { ...entry, versionId: entry.versionId };
              return (
                <li key={entry.versionId ?? 'current'} className="versions__entry">
                  <div className="versions__facts">
                    <span className="versions__when">
                      {formatMoment(entry.at)}
                      {!earlier && <span className="versions__current">Current</span>}
                    </span>
                    <span className="versions__meta">
                      {formatBytes(entry.size)} · <span className="versions__who">{uploader(entry.uploaderId)}</span>
                    </span>
                  </div>
                  <div className="versions__actions">
                    {previewable && (
                      <Button size="sm" variant="secondary" onClick={() => setPreviewing(entry)}>
                        Preview
                      </Button>
                    )}
                    <Button size="sm" variant="secondary" onClick={() => download(entry)}>
                      Download
                    </Button>
                    {earlier && (
                      <Button size="sm" variant="secondary" onClick={() => setConfirm({ kind: 'restore', entry: earlier })}>
                        Restore
                      </Button>
                    )}
                    {earlier && canDelete && (
                      <Button size="sm" variant="ghost" onClick={() => setConfirm({ kind: 'delete', entry: earlier })}>
                        Delete
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
          {entries.length === 1 && (
            <p className="versions__note">No earlier versions. Replace or Upload new version keeps the old content here.</p>
          )}
        </>
      )}
      {previewing && (
        <Previewer
          source={{
            kind: 'item',
            // The version's own size: the views check it against their limits.
            item: { ...item, size: previewing.size },
            scope,
            ...(previewing.versionId ? { versionId: previewing.versionId } : {}),
          }}
          subtitle={previewing.versionId ? `Version of ${formatMoment(previewing.at)}` : 'Current version'}
          onClose={() => setPreviewing(undefined)}
        />
      )}
      <Dialog
        open={confirm !== undefined}
        onOpenChange={(open) => !open && !change.isPending && setConfirm(undefined)}
        title={confirm?.kind === 'delete' ? 'Delete this version?' : 'Restore this version?'}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(undefined)} disabled={change.isPending}>
              Cancel
            </Button>
            <Button
              variant={confirm?.kind === 'delete' ? 'danger' : 'primary'}
              disabled={change.isPending}
              onClick={() => confirm && change.mutate(confirm)}
              data-autofocus
            >
              {confirm?.kind === 'delete' ? 'Delete' : 'Restore'}
            </Button>
          </>
        }
      >
        {confirm && (
          <p>
            {confirm.kind === 'delete'
              ? `The version of ${formatMoment(confirm.entry.at)} (${formatBytes(confirm.entry.size)}) of ${displayName(item)} will be deleted permanently. This cannot be undone.`
              : `The version of ${formatMoment(confirm.entry.at)} becomes the current content of ${displayName(item)}. What is current now is kept as an earlier version.`}
          </p>
        )}
      </Dialog>
    </section>
  );
}
