import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '@sealbox/rules';
import { Button, toast } from '@sealbox/ui';
import { PROFILE_QUERY_KEY, avatarVersionAtom, uploadAvatar, useAvatarUrl, type Profile } from '../auth/index.ts';
import { ProfileSection } from './ProfileSection.tsx';
import './profile.css';

/** The types PUT /api/profile/upload accepts; the server checks the bytes, this only spares a round trip. */
const ACCEPTED_TYPES: readonly string[] = Object.values(AVATAR_TYPES);
export const AVATAR_MESSAGES = {
  type: 'Choose a PNG, JPEG, WebP or GIF image.',
  size: 'The image is larger than 2 MiB. Choose a smaller one.',
  badImage: 'That file is not a PNG, JPEG, WebP or GIF image.',
  failed: 'Could not update your avatar. Please try again.',
  done: 'Avatar updated.',
} as const;

export function checkAvatarFile(file: Pick<File, 'type' | 'size'>): string | undefined {
  if (!ACCEPTED_TYPES.includes(file.type)) return AVATAR_MESSAGES.type;
  if (file.size > AVATAR_MAX_BYTES) return AVATAR_MESSAGES.size;
  return undefined;
}

export function AvatarSection({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const bumpVersion = useSetAtom(avatarVersionAtom);
  const current = useAvatarUrl(profile);
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const reset = () => {
    setFile(undefined);
    setPreview(undefined);
    if (input.current) input.current.value = '';
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    setError(undefined);
    if (!picked) return reset();
    const problem = checkAvatarFile(picked);
    if (problem) {
      setError(problem);
      reset();
      return;
    }
    setFile(picked);
  };

  const onUpload = async () => {
    if (!file) return;
    setBusy(true);
    try {
      const answer = await uploadAvatar(file);
      if (answer.ok) {
        queryClient.setQueryData<Profile | null>(PROFILE_QUERY_KEY, (old) =>
          old ? { ...old, avatarExtension: answer.data.avatarExtension } : old,
        );
        bumpVersion(Math.random().toString(36).slice(2));
        toast(AVATAR_MESSAGES.done, 'success');
        reset();
      } else if (answer.status === 413) {
        setError(AVATAR_MESSAGES.size);
      } else if (answer.status === 400) {
        setError(AVATAR_MESSAGES.badImage);
      } else if (answer.status !== 429 && answer.status !== 401) {
        toast(AVATAR_MESSAGES.failed, 'error');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <ProfileSection id="avatar" title="Avatar">
      <div className="avatar-editor">
        <img
          className="avatar avatar--large"
          src={preview ?? current}
          alt={preview ? 'New avatar preview' : 'Your avatar'}
          width={96}
          height={96}
        />
        <div className="avatar-editor__controls">
          <label className="file-picker">
            <input ref={input} type="file" name="avatar" accept={ACCEPTED_TYPES.join(',')} onChange={onPick} />
            <span className="sb-button sb-button--secondary">Choose image</span>
          </label>
          <p className="muted field__hint">PNG, JPEG, WebP or GIF, up to 2 MiB.</p>
          {file && (
            <div className="avatar-editor__actions">
              <Button onClick={() => void onUpload()} disabled={busy}>
                {busy ? 'Uploading…' : 'Save avatar'}
              </Button>
              <Button variant="ghost" onClick={reset} disabled={busy}>
                Cancel
              </Button>
            </div>
          )}
          {error && (
            <p className="form__error" role="alert">
              {error}
            </p>
          )}
        </div>
      </div>
    </ProfileSection>
  );
}
