import { createRoute } from '@tanstack/react-router';
import { Card, Spinner } from '@sealbox/ui';
import { profileQuery, protectedPage, useAvatarUrl, useProfile } from '../features/auth/index.ts';
import {
  AvatarSection,
  BlockedAccountsSection,
  DangerZoneSection,
  FingerprintSection,
  PreferencesSection,
  SessionsSection,
  StorageSection,
  PasswordSection,
  RecoverySection,
  TotpSection,
  UnfinishedUploadsSection,
  formatDate,
  sessionsQueryOptions,
  unfinishedUploadsQueryOptions,
} from '../features/profile/index.ts';
import { rootRoute } from './root.tsx';
import './profile.css';

function ProfilePage() {
  const profile = useProfile();
  const avatar = useAvatarUrl(profile);
  if (!profile) {
    return (
      <section className="page page--center">
        <Spinner label="Loading your profile" />
      </section>
    );
  }
  return (
    <section className="page profile">
      <header className="profile__header">
        <img className="avatar avatar--header" src={avatar} alt="" width={64} height={64} />
        <div>
          <h1>{profile.username}</h1>
          <p className="muted">
            {profile.email ?? 'No email address'} · member since {formatDate(profile.createdAt)}
          </p>
        </div>
      </header>
      <div className="profile__grid">
        <Card>
          <AvatarSection profile={profile} />
        </Card>
        <Card>
          <StorageSection profile={profile} />
        </Card>
        <Card>
          <FingerprintSection userId={profile.id} />
        </Card>
        <Card>
          <TotpSection profile={profile} />
        </Card>
        <Card>
          <PasswordSection profile={profile} />
        </Card>
        <Card>
          <RecoverySection profile={profile} />
        </Card>
        <Card className="profile__wide">
          <SessionsSection />
        </Card>
        <Card className="profile__wide">
          <UnfinishedUploadsSection myUserId={profile.id} />
        </Card>
        <Card className="profile__wide">
          <BlockedAccountsSection />
        </Card>
        <Card className="profile__wide">
          <PreferencesSection profile={profile} />
        </Card>
        <Card className="profile__wide profile__danger">
          <DangerZoneSection profile={profile} />
        </Card>
      </div>
    </section>
  );
}

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  // Primes the profile, the sessions and the unfinished uploads without holding the navigation
  // (the sections show their own states).
  loader: ({ context: { queryClient } }) => {
    void queryClient.ensureQueryData(profileQuery).catch(() => undefined);
    void queryClient.ensureQueryData(sessionsQueryOptions()).catch(() => undefined);
    void queryClient.ensureQueryData(unfinishedUploadsQueryOptions()).catch(() => undefined);
  },
  ...protectedPage(ProfilePage),
});
