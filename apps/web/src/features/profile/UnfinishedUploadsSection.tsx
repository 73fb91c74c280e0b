import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Spinner, UsageBar, toast } from '@sealbox/ui';
import { settleEach } from '../../lib/settle-each.ts';
import { displayName } from '../../model/item-names.ts';
import { ANONYMOUS_UPLOADER } from '../../model/uploader.ts';
import { PROFILE_QUERY_KEY } from '../auth/index.ts';
import { formatBytes, formatDateTime } from './format.ts';
import { UNFINISHED_PAGE, UNFINISHED_UPLOADS_QUERY_KEY, unfinishedUploadsQueryOptions } from './queries.ts';
import { abortUnfinishedUpload, type UnfinishedUpload } from './unfinished-api.ts';
import './unfinished.css';
import './profile.css';

/** Who started an upload, as the owner reads it: themselves, a user, or an anonymous link holder. */
export function startedBy(upload: UnfinishedUpload, users: Record<string, string>, myUserId: string): string {
  const id = upload.item.uploaderId;
  if (id === null) return ANONYMOUS_UPLOADER;
  const name = id === myUserId ? 'You' : (users[id] ?? 'Unknown user');
  return upload.linkId === null ? name : `${name} (via link)`;
}

/** When it started, when a part last came (if one did since), and when it expires untouched. */
function timesOf(upload: UnfinishedUpload): string {
  const sent = upload.lastActivityAt - upload.startedAt > 60_000 ? [`last part ${formatDateTime(upload.lastActivityAt)}`] : [];
  return [`Started ${formatDateTime(upload.startedAt)}`, ...sent, `expires ${formatDateTime(upload.expiresAt)}`].join(' · ');
}

/** Where the file goes: "My Files", then the folders down to its parent. */
function placeOf(upload: UnfinishedUpload): string {
  return ['My Files', ...upload.path.map((folder) => displayName(folder))].join(' / ');
}

/**
 * Profile's list of the unfinished uploads in the user's tree, whoever started them (docs/protocol.md
 * "Uploads by others"): each holds its whole size of the user's storage until it finishes, is
 * aborted or expires, so the owner sees who started it, where, how far it got, and can end it.
 */
export function UnfinishedUploadsSection({ myUserId }: { myUserId: string }) {
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(UNFINISHED_PAGE);
  const [confirming, setConfirming] = useState(false);
  const list = useQuery(unfinishedUploadsQueryOptions(limit));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: UNFINISHED_UPLOADS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY, exact: true }),
    ]);
  const abort = useMutation({
    mutationFn: abortUnfinishedUpload,
    onSuccess: () => toast('Upload aborted. Its space is free again.', 'success'),
    onError: () => toast('Could not abort that upload. Please try again.', 'error'),
    onSettled: refresh,
  });
  const abortAll = useMutation({
    mutationFn: async (uploads: UnfinishedUpload[]) => {
      const done = await settleEach(uploads, 4, (upload) => abortUnfinishedUpload(upload.uploadId));
      return { aborted: done.filter(Boolean).length, failed: done.filter((ok) => !ok).length };
    },
    onSuccess: ({ aborted, failed }) => {
      setConfirming(false);
      if (failed > 0) toast(`Could not abort ${failed} of ${aborted + failed} uploads. Please try again.`, 'error');
      else toast(`${aborted} ${aborted === 1 ? 'upload' : 'uploads'} aborted. Their space is free again.`, 'success');
    },
    onSettled: refresh,
  });

  const uploads = list.data?.uploads ?? [];
  const total = list.data?.total ?? 0;
  return (
    <section className="profile-section unfinished" aria-labelledby="unfinished-title">
      <div className="unfinished__head">
        <h2 id="unfinished-title">Unfinished uploads</h2>
        {uploads.length > 1 && (
          <Button size="sm" variant="secondary" onClick={() => setConfirming(true)} disabled={abortAll.isPending}>
            Abort all
          </Button>
        )}
      </div>
      <p className="muted">
        Files started in your folders, by you or by anyone you share with, that are not finished. Each holds its whole size of
        your storage until it finishes, is aborted, or expires 24 hours after its last activity. Deleting a link or ending
        someone's access ends the uploads started through it.
      </p>
      {list.isPending ? (
        <Spinner label="Loading unfinished uploads" />
      ) : list.isError ? (
        <p className="form__error">Could not load your unfinished uploads.</p>
      ) : uploads.length === 0 ? (
        <p className="muted unfinished__empty">No unfinished uploads.</p>
      ) : (
        <>
          <ul className="unfinished-list">
            {uploads.map((upload) => {
              const name = displayName(upload.item);
              const who = startedBy(upload, list.data.users, myUserId);
              const percent = Math.floor(upload.received * 100);
              return (
                <li key={upload.uploadId} className="unfinished-list__item">
                  <div className="unfinished-list__main">
                    <strong
                      className="unfinished-list__name"
                      title={upload.item.decrypted ? undefined : 'Its name did not decrypt'}
                    >
                      <bdi>{name}</bdi>
                    </strong>
                    <span className="unfinished-list__where">
                      in{' '}
                      <Link to="/files" search={upload.item.parentId ? { parentId: upload.item.parentId } : {}}>
                        <bdi>{placeOf(upload)}</bdi>
                      </Link>
                    </span>
                    <span className="unfinished-list__who">
                      Started by{' '}
                      <span className={upload.item.uploaderId === null ? 'badge badge--anonymous' : 'badge'}>{who}</span>
                    </span>
                  </div>
                  <div className="unfinished-list__progress">
                    <UsageBar
                      className="unfinished-list__bar"
                      used={percent}
                      label={`Received of ${name}`}
                      valueText={`${percent}% of ${formatBytes(upload.item.size)} received`}
                    />
                    <span className="muted">
                      {percent}% of {formatBytes(upload.item.size)} received
                    </span>
                  </div>
                  <span className="muted unfinished-list__times">{timesOf(upload)}</span>
                  <Button
                    size="sm"
                    variant="secondary"
                    className="unfinished-list__abort"
                    aria-label={`Abort upload of ${name}`}
                    disabled={(abort.isPending && abort.variables === upload.uploadId) || abortAll.isPending}
                    onClick={() => abort.mutate(upload.uploadId)}
                  >
                    Abort
                  </Button>
                </li>
              );
            })}
          </ul>
          {total > uploads.length && (
            <div className="unfinished__more">
              <span className="muted">
                Showing the newest {uploads.length} of {total}.
              </span>
              {limit < 1000 && (
                <Button size="sm" variant="ghost" onClick={() => setLimit((n) => Math.min(1000, n + UNFINISHED_PAGE))}>
                  Show more
                </Button>
              )}
            </div>
          )}
        </>
      )}
      <Dialog
        open={confirming}
        onOpenChange={(open) => !open && !abortAll.isPending && setConfirming(false)}
        title="Abort all unfinished uploads?"
        description={`The ${uploads.length} uploads shown end now: the parts they sent are deleted and the space they hold is freed. Whoever started them has to start again.`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={abortAll.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => abortAll.mutate(uploads)} disabled={abortAll.isPending}>
              {abortAll.isPending ? 'Aborting…' : 'Abort all'}
            </Button>
          </>
        }
      />
    </section>
  );
}
