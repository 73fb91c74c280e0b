/**
 * docs/product.md "Screens" Dialogs: Share, with a Users tab and a Links tab, for the owner of an
 * item only (docs/product.md "Roles"). The route opens it from an item's Share action.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { Button, Dialog, cx } from '@sealbox/ui';
import type { ItemView } from '../../../model/items.ts';
import { displayName } from '../../../model/item-names.ts';
import { LinksTab } from './LinksTab.tsx';
import { SHARE_TEXT } from './share-logic.ts';
import { UsersTab } from './UsersTab.tsx';
import './share-dialog.css';

type Tab = 'users' | 'links';
const TABS: ReadonlyArray<{ id: Tab; label: string }> = [
  { id: 'users', label: 'Users' },
  { id: 'links', label: 'Links' },
];

export interface ShareDialogProps {
  item: ItemView;
  myUserId: string | undefined;
  open: boolean;
  onClose: () => void;
}

export function ShareDialog({ item, myUserId, open, onClose }: ShareDialogProps) {
  const [tab, setTab] = useState<Tab>('users');
  const base = useId();
  const owner = myUserId !== undefined && item.ownerId === myUserId;
  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = tab === 'users' ? 'links' : 'users';
    setTab(next);
    document.getElementById(`${base}-tab-${next}`)?.focus();
  };
  return (
    <Dialog
      open={open}
      size="lg"
      className="share-dialog"
      onOpenChange={(next) => !next && onClose()}
      title={
        <>
          Share <span className="dialog-name">{displayName(item)}</span>
        </>
      }
      footer={
        <Button variant="secondary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {!owner ? (
        <p className="share-note share-note--error">{SHARE_TEXT.notOwner}</p>
      ) : (
        <div className="share">
          <div className="share-tabs" role="tablist" aria-label="Share with">
            {TABS.map(({ id, label }) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`${base}-tab-${id}`}
                aria-selected={tab === id}
                aria-controls={`${base}-panel-${id}`}
                tabIndex={tab === id ? 0 : -1}
                className={cx('share-tabs__tab', tab === id && 'share-tabs__tab--active')}
                onClick={() => setTab(id)}
                onKeyDown={onTabKey}
              >
                {label}
              </button>
            ))}
          </div>
          <div className="share-panel" role="tabpanel" id={`${base}-panel-${tab}`} aria-labelledby={`${base}-tab-${tab}`}>
            {tab === 'users' ? <UsersTab item={item} myUserId={myUserId} /> : <LinksTab item={item} />}
          </div>
        </div>
      )}
    </Dialog>
  );
}
