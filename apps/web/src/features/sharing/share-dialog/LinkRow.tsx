/**
 * One link in the Share dialog's Links tab (docs/web-files.md "Expired links stay listed"): an
 * active one (copy, role, password, expiry, revoke), or an expired one (renew or delete).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, toast } from '@sealbox/ui';
import type { ItemView } from '../../../model/items.ts';
import { ExpiryForm } from './link-expiry.tsx';
import { copyLink } from './copy-link.ts';
import { changeLink, revokeLink, type ShareLink } from './share-api.ts';
import { SHARE_TEXT, expiredText, expiryText, roleLabel } from './share-logic.ts';
import { linksQueryOptions } from './share-queries.ts';

interface RowProps {
  item: ItemView;
  link: ShareLink;
  /** 'Link 2': its place among all the item's links, oldest first, kept when it expires. */
  label: string;
  onChanged: () => Promise<void>;
}

/** Runs one change of the link with a toast for how it went, then refreshes the list. */
function useLinkAction(onChanged: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<void>, success: string, failure: string) => {
    setBusy(true);
    try {
      await work();
      toast(success, 'success');
    } catch {
      toast(failure, 'error');
    } finally {
      setBusy(false);
    }
    await onChanged();
  };
  return { busy, act };
}

/** Revoke (an active link) or Delete (an expired one): the link goes for good. */
function RemoveButton({
  link,
  label,
  text,
  done,
  busy,
  act,
}: {
  link: ShareLink;
  label: string;
  text: string;
  done: string;
  busy: boolean;
  act: ReturnType<typeof useLinkAction>['act'];
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className="share-revoke"
      disabled={busy}
      aria-label={`${text} ${label}`}
      onClick={() => void act(() => revokeLink(link.linkId), done, SHARE_TEXT.revokeFailed(label.toLowerCase()))}
    >
      {text}
    </Button>
  );
}

/** Change expiry or Renew: the form in place of the row's buttons until sent or cancelled. */
function NewExpiry({
  link,
  label,
  submitText,
  busy,
  act,
  onClose,
}: {
  link: ShareLink;
  label: string;
  submitText: string;
  busy: boolean;
  act: ReturnType<typeof useLinkAction>['act'];
  onClose: () => void;
}) {
  return (
    <ExpiryForm
      label={label}
      submitText={submitText}
      busy={busy}
      onCancel={onClose}
      onSubmit={async (expires) => {
        await act(
          () => changeLink({ linkId: link.linkId, expires }),
          link.expired ? `${label} renewed` : `${label}'s expiry changed`,
          SHARE_TEXT.expiryFailed,
        );
        onClose();
      }}
    />
  );
}

export function LinkRow({ item, link, label, onChanged }: RowProps) {
  const queryClient = useQueryClient();
  const { busy, act } = useLinkAction(onChanged);
  const [editing, setEditing] = useState<'password' | 'expiry' | null>(null);
  const [password, setPassword] = useState('');
  const savePassword = async (event: FormEvent) => {
    event.preventDefault();
    if (!password.trim()) return;
    await act(
      () => changeLink({ linkId: link.linkId, password }),
      link.passwordProtected ? 'Password changed' : 'Password set',
      SHARE_TEXT.passwordFailed,
    );
    setPassword('');
    setEditing(null);
  };
  return (
    <li className="share-link" aria-label={label}>
      <div className="share-link__top">
        <div className="share-link__what">
          <span className="share-row__name">{label}</span>
          <span className="share-link__meta">
            <span>{expiryText(link.expiresAt)}</span>
            {link.passwordProtected && <span className="share-badge">Password protected</span>}
          </span>
        </div>
        <div className="share-row__actions">
          <Button size="sm" variant="secondary" onClick={() => void copyLink(item.id, link.linkId)} aria-label={`Copy ${label}`}>
            Copy link
          </Button>
          <select
            className="share-select"
            aria-label={`Permission for ${label}`}
            value={link.editPermission ? 'editor' : 'viewer'}
            disabled={busy}
            onChange={(event) => {
              const next = event.target.value === 'editor';
              void act(
                async () => {
                  await changeLink({ linkId: link.linkId, edit: next });
                  // Shown at once; the refetch after confirms it.
                  queryClient.setQueryData(linksQueryOptions(item.id).queryKey, (old) =>
                    old?.map((l) => (l.linkId === link.linkId ? { ...l, editPermission: next } : l)),
                  );
                },
                `${label} is now ${roleLabel(next).toLowerCase()}`,
                SHARE_TEXT.permissionFailed,
              );
            }}
          >
            <option value="viewer">Viewer</option>
            <option value="editor">Editor</option>
          </select>
        </div>
      </div>
      <div className="share-link__bottom">
        {editing === 'expiry' ? (
          <NewExpiry link={link} label={label} submitText="Save" busy={busy} act={act} onClose={() => setEditing(null)} />
        ) : editing === 'password' ? (
          <form className="share-password" onSubmit={(event) => void savePassword(event)}>
            <input
              type="password"
              aria-label={`New password for ${label}`}
              placeholder="New password"
              value={password}
              autoComplete="new-password"
              maxLength={1024}
              onChange={(event) => setPassword(event.target.value)}
              // biome-ignore lint/a11y/noAutofocus: the field the owner just asked for
              autoFocus
            />
            <Button size="sm" type="submit" disabled={!password.trim() || busy}>
              Save
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                setEditing(null);
                setPassword('');
              }}
            >
              Cancel
            </Button>
          </form>
        ) : (
          <>
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => setEditing('password')}>
              {link.passwordProtected ? 'Change password' : 'Set password'}
            </Button>
            {link.passwordProtected && (
              <Button
                size="sm"
                variant="ghost"
                disabled={busy}
                onClick={() =>
                  void act(
                    () => changeLink({ linkId: link.linkId, password: null }),
                    'Password removed',
                    SHARE_TEXT.passwordFailed,
                  )
                }
              >
                Remove password
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              disabled={busy}
              aria-label={`Change expiry of ${label}`}
              onClick={() => setEditing('expiry')}
            >
              Change expiry
            </Button>
            <RemoveButton link={link} label={label} text="Revoke" done="Link revoked" busy={busy} act={act} />
          </>
        )}
      </div>
    </li>
  );
}

/** An expired link: it opens for nobody; Renew gives it a new expiry, Delete removes it now. */
export function ExpiredLinkRow({ link, label, onChanged }: Omit<RowProps, 'item'>) {
  const { busy, act } = useLinkAction(onChanged);
  const [renewing, setRenewing] = useState(false);
  return (
    <li className="share-link share-link--expired" aria-label={label}>
      <div className="share-link__top">
        <div className="share-link__what">
          <span className="share-row__name">{label}</span>
          <span className="share-link__meta">
            <span className="share-badge share-badge--expired">Expired</span>
            <span>{expiredText(link.expiresAt ?? 0)}</span>
          </span>
        </div>
      </div>
      <div className="share-link__bottom">
        {renewing ? (
          <NewExpiry link={link} label={label} submitText="Renew" busy={busy} act={act} onClose={() => setRenewing(false)} />
        ) : (
          <>
            <Button size="sm" variant="ghost" disabled={busy} aria-label={`Renew ${label}`} onClick={() => setRenewing(true)}>
              Renew
            </Button>
            <RemoveButton link={link} label={label} text="Delete" done="Link deleted" busy={busy} act={act} />
          </>
        )}
      </div>
    </li>
  );
}
