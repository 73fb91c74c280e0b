/**
 * The Share dialog's Links tab (docs/product.md "Screens" (Dialogs), "States", "Input rules" and
 * "Limits"; docs/web-files.md "Expired links stay listed"): create a link (expiry amount and unit,
 * viewer or editor, optional password), manage the active ones (LinkRow.tsx), and renew or delete
 * the expired ones, which the server keeps for 30 days.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, Spinner, toast } from '@sealbox/ui';
import type { ItemView } from '../../../model/items.ts';
import { ExpiryFields, useExpiry } from './link-expiry.tsx';
import { ExpiredLinkRow, LinkRow } from './LinkRow.tsx';
import { createLink, type ShareLink } from './share-api.ts';
import { EXPIRED_LINKS_NOTE, SHARE_TEXT, roleDescription } from './share-logic.ts';
import { linksQueryOptions, shareKeys } from './share-queries.ts';

function CreateLinkForm({ item, onCreated }: { item: ItemView; onCreated: () => Promise<void> }) {
  const ids = useId();
  const expiry = useExpiry();
  const [edit, setEdit] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const { seconds } = expiry;
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
        <ExpiryFields expiry={expiry} />
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
      ) : (
        <LinkLists item={item} links={links.data} onChanged={refresh} />
      )}
    </div>
  );
}

/** The active links, then the expired ones; each keeps its number among all of them. */
function LinkLists({ item, links, onChanged }: { item: ItemView; links: ShareLink[]; onChanged: () => Promise<void> }) {
  const numbered = links.map((link, index) => ({ link, label: `Link ${index + 1}` }));
  const active = numbered.filter(({ link }) => !link.expired);
  const expired = numbered.filter(({ link }) => link.expired);
  return (
    <>
      {active.length === 0 ? (
        <p className="share-note">No active links</p>
      ) : (
        <ul className="sb-boxed-list share-list" aria-label="Active links">
          {active.map(({ link, label }) => (
            <LinkRow key={link.linkId} item={item} link={link} label={label} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {expired.length > 0 && (
        <>
          <h3 className="share-heading">Expired links</h3>
          <p className="share-note">{EXPIRED_LINKS_NOTE}</p>
          <ul className="sb-boxed-list share-list" aria-label="Expired links">
            {expired.map(({ link, label }) => (
              <ExpiredLinkRow key={link.linkId} link={link} label={label} onChanged={onChanged} />
            ))}
          </ul>
        </>
      )}
    </>
  );
}
