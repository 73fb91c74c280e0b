/**
 * The Share dialog's Users tab (docs/product.md "Screens" (Dialogs) and "Roles"): search people (3
 * characters at least, 10 at most, never yourself), add them as viewer or editor, and manage who
 * has access. Every grant is made in the crypto worker against the pinned keys; changed keys need
 * the owner's "Keys changed" confirmation first.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, Spinner, toast } from '@sealbox/ui';
import { RpcError, cryptoWorker, hasCryptoCode } from '../../../crypto/client.ts';
import type { ItemView } from '../../../model/items.ts';
import { Fingerprint, KeysChanged, UserAvatar } from './ShareParts.tsx';
import { changeUserShare, revokeUser, shareWithUser, type AccessEntry, type PublicUser } from './share-api.ts';
import {
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_CHARS,
  SHARE_TEXT,
  roleDescription,
  roleLabel,
  searchResults,
  searchTerm,
} from './share-logic.ts';
import { accessQueryOptions, searchQueryOptions, shareKeys } from './share-queries.ts';
import { useDebounced } from './useDebounced.ts';

interface PendingTrust {
  user: PublicUser;
  pinned: string | null;
  current: string;
  retry: () => Promise<void>;
  failure: string;
}

const keysOf = (user: PublicUser) => ({ id: user.id, publicKey: user.publicKey, signingPublicKey: user.signingPublicKey });
const hasKeys = (user: PublicUser | undefined): user is PublicUser =>
  !!user && typeof user.publicKey === 'string' && user.publicKey !== '' && typeof user.signingPublicKey === 'string';

export function UsersTab({ item, myUserId }: { item: ItemView; myUserId: string | undefined }) {
  const queryClient = useQueryClient();
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const [edit, setEdit] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [trust, setTrust] = useState<PendingTrust | null>(null);
  const term = searchTerm(useDebounced(typed, SEARCH_DEBOUNCE_MS));
  // The rows on screen stay while a changed term is searched, so they (and a Verify left open in
  // them) do not vanish and come back; once the field held no term, there are none to keep.
  const shownTerm = useRef<string | undefined>(undefined);
  useEffect(() => {
    shownTerm.current = term;
  });
  const keepRows = shownTerm.current !== undefined;
  const search = useQuery({
    ...searchQueryOptions(term ?? ''),
    enabled: term !== undefined,
    placeholderData: (previous) => (keepRows ? previous : undefined),
  });
  const answered = search.data !== undefined && !search.isPlaceholderData;
  const access = useQuery(accessQueryOptions(item.id));

  useEffect(() => {
    if (search.isError) toast(SHARE_TEXT.searchFailed, 'error');
  }, [search.isError]);
  useEffect(() => {
    if (access.isError) toast(SHARE_TEXT.listFailed, 'error');
  }, [access.isError]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: shareKeys.access(item.id) });
  const usersById = new Map((access.data?.users ?? []).map((user) => [user.id, user]));
  const entries = access.data?.access ?? [];
  const withAccess = new Set(entries.map((entry) => entry.userId));
  const results = term && search.data ? searchResults(search.data, myUserId) : [];

  /** Runs a grant-making step; on changed keys asks for "Keys changed" first, then runs it again. */
  const guarded = async (user: PublicUser, step: () => Promise<void>, failure: string) => {
    try {
      await step();
    } catch (error) {
      if (hasCryptoCode(error, 'KEY_CHANGED')) {
        const pin = await cryptoWorker.call('pinStatus', keysOf(user)).catch(() => undefined);
        if (pin) {
          setTrust({ user, pinned: pin.pinned, current: pin.fingerprint, retry: step, failure });
          return;
        }
      }
      if (error instanceof RpcError && error.code === 'NO_KEY') toast(SHARE_TEXT.noKey, 'error');
      else toast(failure, 'error');
    }
  };

  const run = async (key: string, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const add = (user: PublicUser) =>
    run(`add:${user.id}`, () => {
      if (!hasKeys(user)) {
        toast(SHARE_TEXT.noPublicKey, 'error');
        return Promise.resolve();
      }
      const step = async () => {
        const grant = await cryptoWorker.call('grantFor', item.id, keysOf(user), edit);
        await shareWithUser({ id: item.id, userId: user.id, edit, ...grant });
        toast(`Shared with ${user.username}`, 'success');
        setTyped('');
        await refresh();
        void queryClient.invalidateQueries({ queryKey: shareKeys.pin(user) });
      };
      return guarded(user, step, SHARE_TEXT.shareFailed);
    });

  const switchRole = (entry: AccessEntry, user: PublicUser | undefined, next: boolean) =>
    run(`role:${entry.userId}`, () => {
      if (!hasKeys(user)) {
        toast(SHARE_TEXT.noPublicKey, 'error');
        return Promise.resolve();
      }
      const step = async () => {
        const { signature } = await cryptoWorker.call('regrant', item.id, keysOf(user), entry.encryptedKey, next);
        await changeUserShare({ fileId: item.id, userId: entry.userId, edit: next, signature });
        // Shown at once; the refetch below confirms it.
        queryClient.setQueryData(accessQueryOptions(item.id).queryKey, (old) =>
          old
            ? {
                ...old,
                access: old.access.map((e) => (e.userId === entry.userId ? { ...e, editPermission: next, signature } : e)),
              }
            : old,
        );
        toast(`${user.username} is now ${next ? 'an editor' : 'a viewer'}`, 'success');
        await refresh();
      };
      return guarded(user, step, SHARE_TEXT.permissionFailed);
    });

  const revoke = (entry: AccessEntry, name: string) =>
    run(`revoke:${entry.userId}`, async () => {
      try {
        await revokeUser({ fileId: item.id, userId: entry.userId });
        toast(`Access removed for ${name}`, 'success');
      } catch {
        toast(SHARE_TEXT.revokeFailed(name), 'error');
      }
      await refresh();
    });

  if (trust)
    return (
      <KeysChanged
        user={trust.user}
        pinned={trust.pinned}
        current={trust.current}
        onCancel={() => setTrust(null)}
        onTrust={async () => {
          try {
            await cryptoWorker.call('trustKeys', keysOf(trust.user), trust.current);
          } catch {
            toast(trust.failure, 'error');
            setTrust(null);
            return;
          }
          await queryClient.invalidateQueries({ queryKey: shareKeys.pin(trust.user) });
          setTrust(null);
          await run(`trust:${trust.user.id}`, () => guarded(trust.user, trust.retry, trust.failure));
        }}
      />
    );

  const tooShort = typed.trim() !== '' && searchTerm(typed) === undefined;
  return (
    <div className="share-tab">
      <div className="share-search">
        <label className="field share-search__field" htmlFor={searchId}>
          <span>Add people</span>
          <input
            id={searchId}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder="Search by username"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            data-autofocus
          />
        </label>
        <fieldset className="share-role" aria-label="Add as">
          <legend className="sb-visually-hidden">Add as</legend>
          {[false, true].map((value) => (
            <label key={String(value)} className="share-role__option">
              <input type="radio" name="share-role" checked={edit === value} onChange={() => setEdit(value)} />
              <span>{roleLabel(value)}</span>
            </label>
          ))}
        </fieldset>
        <p className="share-role__what">{roleDescription(edit, item.isDirectory)}</p>
      </div>
      <div className="share-results" aria-live="polite">
        {tooShort ? (
          <p className="share-note">Type at least {SEARCH_MIN_CHARS} characters to search.</p>
        ) : term && search.isFetching && !answered && results.length === 0 ? (
          <Spinner size={18} label="Searching" />
        ) : term && answered && results.length === 0 ? (
          <p className="share-note">No users found</p>
        ) : null}
        {results.length > 0 && (
          <ul className="sb-boxed-list share-list" aria-label="Search results">
            {results.map((user) => (
              <li key={user.id} className="share-row">
                <UserAvatar user={user} />
                <div className="share-row__who">
                  <span className="share-row__name">{user.username}</span>
                  <Fingerprint user={user} />
                </div>
                <div className="share-row__actions">
                  {withAccess.has(user.id) ? (
                    <span className="share-note">Has access</span>
                  ) : (
                    <Button
                      size="sm"
                      onClick={() => void add(user)}
                      disabled={busy !== null}
                      aria-label={`Add ${user.username} as ${roleLabel(edit).toLowerCase()}`}
                    >
                      Add as {roleLabel(edit).toLowerCase()}
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>

      <h3 className="share-heading">People with access</h3>
      {access.isPending ? (
        <Spinner size={18} label="Loading people with access" />
      ) : access.isError ? (
        <p className="share-note share-note--error">{SHARE_TEXT.listFailed}</p>
      ) : entries.length === 0 ? (
        <p className="share-note">Only you can open this {item.isDirectory ? 'folder' : 'file'}.</p>
      ) : (
        <ul className="sb-boxed-list share-list" aria-label="People with access">
          {entries.map((entry) => {
            const user = usersById.get(entry.userId);
            const name = user?.username ?? 'Unknown user';
            return (
              <li key={entry.userId} className="share-row">
                <UserAvatar user={{ id: entry.userId, avatarExtension: user?.avatarExtension ?? null }} />
                <div className="share-row__who">
                  <span className="share-row__name">{name}</span>
                  {hasKeys(user) ? (
                    <Fingerprint user={user} />
                  ) : (
                    <span className="share-fp--error">{SHARE_TEXT.noPublicKey}</span>
                  )}
                </div>
                <div className="share-row__actions">
                  <select
                    className="share-select"
                    aria-label={`Permission for ${name}`}
                    value={entry.editPermission ? 'editor' : 'viewer'}
                    disabled={busy !== null}
                    onChange={(event) => void switchRole(entry, user, event.target.value === 'editor')}
                  >
                    <option value="viewer">Viewer</option>
                    <option value="editor">Editor</option>
                  </select>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="share-revoke"
                    disabled={busy !== null}
                    onClick={() => void revoke(entry, name)}
                    aria-label={`Revoke access for ${name}`}
                  >
                    Revoke
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
