import { useQuery } from '@tanstack/react-query';
import { atom, useAtomValue } from 'jotai';
import { profileQuery } from './queries.ts';
import { avatarUrl, type Profile } from './account-api.ts';
import { signedInAtom } from './session.ts';

/** The signed-in user's profile (from the cache the auth sync keeps fresh); undefined while loading or signed out. */
export function useProfile(): Profile | undefined {
  const signedIn = useAtomValue(signedInAtom);
  const { data } = useQuery({ ...profileQuery, enabled: signedIn });
  return signedIn ? (data ?? undefined) : undefined;
}

/**
 * docs/protocol.md "HTTP endpoints": avatars load with a random cache-busting query; a new upload
 * picks a new one.
 */
export const avatarVersionAtom = atom(Math.random().toString(36).slice(2));

export function useAvatarUrl(profile: Pick<Profile, 'id' | 'avatarExtension'> | undefined): string | undefined {
  const version = useAtomValue(avatarVersionAtom);
  return profile ? avatarUrl(profile.id, profile.avatarExtension, version) : undefined;
}
