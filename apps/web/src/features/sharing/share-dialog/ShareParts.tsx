/** Small parts of the Share dialog: a user's avatar, their key fingerprint, and the "Keys changed" confirmation. */
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Button, Spinner, cx } from '@sealbox/ui';
import { avatarUrl } from '../../auth/index.ts';
import type { PublicUser } from './share-api.ts';
import { pinQueryOptions } from './share-queries.ts';

/**
 * docs/protocol.md "HTTP endpoints": avatars load with a random cache-busting query, one per dialog
 * opening.
 */
const AVATAR_VERSION = Math.random().toString(36).slice(2, 10);

export function UserAvatar({ user }: { user: Pick<PublicUser, 'id' | 'avatarExtension'> }) {
  return (
    <img
      className="share-avatar"
      src={avatarUrl(user.id, user.avatarExtension, AVATAR_VERSION)}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      decoding="async"
    />
  );
}

const PIN_NOTE = {
  'first-use': 'New: pinned when you share',
  match: 'Matches the pinned keys',
  changed: 'Keys changed',
} as const;

/** docs/protocol.md: the public-key fingerprint, grouped hex, and how it compares with the pin. */
export function Fingerprint({ user }: { user: PublicUser }) {
  const pin = useQuery(pinQueryOptions(user));
  if (pin.isPending) return <span className="share-fp share-fp--loading">Computing fingerprint…</span>;
  if (pin.isError || !pin.data) return <span className="share-fp share-fp--error">Fingerprint unavailable</span>;
  return <PinnedFingerprint username={user.username} fingerprint={pin.data.fingerprint} status={pin.data.status} />;
}

/**
 * How the keys compare with the pin, and Verify: the hex and what to compare it with, shown only
 * when asked (docs/web-files.md "Sharing, clearer"), since a row of hex says nothing by itself.
 */
function PinnedFingerprint({
  username,
  fingerprint,
  status,
}: {
  username: string;
  fingerprint: string;
  status: keyof typeof PIN_NOTE;
}) {
  const [open, setOpen] = useState(false);
  return (
    <span className="share-fp-block">
      <span className={cx('share-pin', `share-pin--${status}`)}>{PIN_NOTE[status]}</span>
      <button
        type="button"
        className="share-fp-verify"
        aria-expanded={open}
        aria-label={`Verify ${username}'s keys`}
        onClick={() => setOpen((shown) => !shown)}
      >
        {open ? 'Hide fingerprint' : 'Verify'}
      </button>
      {open && (
        <>
          <span className="share-fp-how">{verifyHint(username)}</span>
          <span className="sb-visually-hidden">Fingerprint: </span>
          <FingerprintText value={fingerprint} />
        </>
      )}
    </span>
  );
}

/** What to compare the fingerprint with, and where the other person finds theirs. */
export function verifyHint(username: string): string {
  return `Compare it with the Key fingerprint ${username} sees in their Profile, read out in person or on a call.`;
}

/** Grouped hex laid out in even columns (8 per line, 4 on narrow screens); its text keeps the spaces. */
function FingerprintText({ value }: { value: string }) {
  return (
    <code className="share-fp" title="Public-key fingerprint">
      {value.split(' ').map((group, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: groups are positional
        <Fragment key={index}>
          {index > 0 && ' '}
          <span>{group}</span>
        </Fragment>
      ))}
    </code>
  );
}

export const KEYS_CHANGED_TITLE = 'Keys changed';

/**
 * docs/protocol.md: sharing to keys that differ from the pin needs the owner's explicit confirmation,
 * after comparing the new fingerprint with the person by some other channel.
 */
export function KeysChanged({
  user,
  pinned,
  current,
  onCancel,
  onTrust,
}: {
  user: PublicUser;
  pinned: string | null;
  current: string;
  onCancel: () => void;
  onTrust: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <section className="share-keys-changed" role="alertdialog" aria-labelledby="share-keys-changed-title">
      <h3 id="share-keys-changed-title">{KEYS_CHANGED_TITLE}</h3>
      <p>
        <strong>{user.username}</strong>’s keys are not the ones you saw before. They may have set up their account again, or
        someone may be trying to read what you share. Compare the new fingerprint with {user.username} in person or by another
        channel, and continue only if it matches.
      </p>
      <dl className="share-keys-changed__prints">
        <div>
          <dt>Pinned</dt>
          <dd>{pinned ? <FingerprintText value={pinned} /> : 'none'}</dd>
        </div>
        <div>
          <dt>Now</dt>
          <dd>
            <FingerprintText value={current} />
          </dd>
        </div>
      </dl>
      <div className="share-keys-changed__actions">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onTrust().finally(() => setBusy(false));
          }}
        >
          {busy ? <Spinner size={14} label="Trusting" /> : null}
          Trust the new keys
        </Button>
      </div>
    </section>
  );
}
