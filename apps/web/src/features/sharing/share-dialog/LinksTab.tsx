/**
 * The Share dialog's Links tab (docs/product.md "Screens" (Dialogs), "States", "Input rules" and
 * "Limits"): create a link (expiry amount and unit, viewer or editor, optional password) and manage
 * the active ones: copy the full URL (its key only in the fragment, from the crypto worker), switch
 * the role, set/change/remove the password, revoke.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, Spinner, toast } from '@sealbox/ui';
import { RpcError, cryptoWorker } from '../../../crypto/client.ts';
import type { ItemView } from '../../../model/items.ts';
import { changeLink, createLink, revokeLink, type ShareLink } from './share-api.ts';
import {
  EXPIRY_MIN_AMOUNT,
  EXPIRY_UNITS,
  SHARE_TEXT,
  expirySeconds,
  expiryText,
  linkUrl,
  roleDescription,
  roleLabel,
  type ExpiryUnit,
} from './share-logic.ts';
import { linksQueryOptions, shareKeys } from './share-queries.ts';

/** Copies the link's full URL; the fragment (the item's K) is asked of the worker at the click. */
export async function copyLink(itemId: string, linkId: string): Promise<void> {
  let fragment: string;
  try {
    fragment = await cryptoWorker.call('linkFragment', itemId);
  } catch (error) {
    toast(error instanceof RpcError && error.code === 'NO_KEY' ? SHARE_TEXT.noKey : SHARE_TEXT.copyFailed, 'error');
    return;
  }
  try {
    await navigator.clipboard.writeText(linkUrl(location.origin, linkId, fragment));
    toast('Link copied', 'success');
  } catch {
    toast(SHARE_TEXT.copyFailed, 'error');
  }
}

function CreateLinkForm({ item, onCreated }: { item: ItemView; onCreated: () => Promise<void> }) {
  const ids = useId();
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<ExpiryUnit>('days');
  const [edit, setEdit] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const seconds = expirySeconds(Number(amount), unit);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (seconds === undefined || busy) return;
    setBusy(true);
    try {
      await createLink({ id: item.id, expires: seconds, edit, ...(password.trim() ? { password } : {}) });
      toast('Link created', 'success');
      setPassword('');
      await onCreated();
    } catch {
      toast(SHARE_TEXT.shareFailed, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="share-create" onSubmit={(event) => void submit(event)} aria-label="Create a link">
      <div className="share-create__row">
        <label className="field share-create__amount" htmlFor={`${ids}-amount`}>
          <span>Expires after</span>
          <input
            id={`${ids}-amount`}
            type="number"
            inputMode="numeric"
            min={EXPIRY_MIN_AMOUNT}
            step={1}
            value={amount}
            disabled={unit === 'never'}
            aria-invalid={unit !== 'never' && seconds === undefined}
            onChange={(event) => setAmount(event.target.value)}
          />
        </label>
        <label className="field share-create__unit" htmlFor={`${ids}-unit`}>
          <span>Unit</span>
          <select id={`${ids}-unit`} value={unit} onChange={(event) => setUnit(event.target.value as ExpiryUnit)}>
            {EXPIRY_UNITS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field share-create__role" htmlFor={`${ids}-role`}>
          <span>Permission</span>
          <select
            id={`${ids}-role`}
            value={edit ? 'editor' : 'viewer'}
            onChange={(event) => setEdit(event.target.value === 'editor')}
          >
            <option value="viewer">Viewer</option>
            <option value="editor">Editor</option>
          </select>
        </label>
      </div>
      <p className="share-role__what">{roleDescription(edit, item.isDirectory)}</p>
      <label className="field" htmlFor={`${ids}-password`}>
        <span>
          Password <span className="field__optional">(optional)</span>
        </span>
        <input
          id={`${ids}-password`}
          type="password"
          value={password}
          autoComplete="new-password"
          maxLength={1024}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <div className="share-create__submit">
        <Button type="submit" disabled={seconds === undefined || busy}>
          Create link
        </Button>
      </div>
    </form>
  );
}

function LinkRow({
  item,
  link,
  index,
  onChanged,
}: {
  item: ItemView;
  link: ShareLink;
  index: number;
  onChanged: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [editingPassword, setEditingPassword] = useState(false);
  const [password, setPassword] = useState('');
  const label = `Link ${index + 1}`;
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
  const savePassword = async (event: FormEvent) => {
    event.preventDefault();
    if (!password.trim()) return;
    await act(
      () => changeLink({ linkId: link.linkId, password }),
      link.passwordProtected ? 'Password changed' : 'Password set',
      SHARE_TEXT.passwordFailed,
    );
    setPassword('');
    setEditingPassword(false);
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
        {editingPassword ? (
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
                setEditingPassword(false);
                setPassword('');
              }}
            >
              Cancel
            </Button>
          </form>
        ) : (
          <>
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => setEditingPassword(true)}>
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
              className="share-revoke"
              disabled={busy}
              aria-label={`Revoke ${label}`}
              onClick={() =>
                void act(() => revokeLink(link.linkId), 'Link revoked', SHARE_TEXT.revokeFailed(label.toLowerCase()))
              }
            >
              Revoke
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

export function LinksTab({ item }: { item: ItemView }) {
  const queryClient = useQueryClient();
  const links = useQuery(linksQueryOptions(item.id));
  useEffect(() => {
    if (links.isError) toast(SHARE_TEXT.listFailed, 'error');
  }, [links.isError]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: shareKeys.links(item.id) });
  return (
    <div className="share-tab">
      <CreateLinkForm item={item} onCreated={refresh} />
      <h3 className="share-heading">Active links</h3>
      {links.isPending ? (
        <Spinner size={18} label="Loading links" />
      ) : links.isError ? (
        <p className="share-note share-note--error">{SHARE_TEXT.listFailed}</p>
      ) : links.data.length === 0 ? (
        <p className="share-note">No active links</p>
      ) : (
        <ul className="sb-boxed-list share-list" aria-label="Active links">
          {links.data.map((link, index) => (
            <LinkRow key={link.linkId} item={item} link={link} index={index} onChanged={refresh} />
          ))}
        </ul>
      )}
    </div>
  );
}
