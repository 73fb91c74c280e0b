import { createRoute } from '@tanstack/react-router';
import { Card, Spinner } from '@sealbox/ui';
import { profileQuery, protectedPage, useAvatarUrl, useProfile } from '../features/auth/index.ts';
import {
  AvatarSection,
  BlockedAccountsSection,
  FingerprintSection,
  PreferencesSection,
  SessionsSection,
  TotpSection,
  formatBytes,
  formatDate,
  sessionsQueryOptions,
} from '../features/profile/index.ts';
import { rootRoute } from './root.tsx';

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
  const percent = profile.totalSpace > 0 ? Math.trunc((profile.usedSpace / profile.totalSpace) * 100) : 0;
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
          <section className="profile-section" aria-labelledby="storage-title">
            <h2 id="storage-title">Storage</h2>
            {/* biome-ignore lint/a11y/useSemanticElements: <meter> cannot take the warning colours the bar changes to */}
            <div
              className="meter"
              role="meter"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-label="Storage used"
            >
              <progress value={percent} max={100} />
            </div>
            <p className="muted">
              {percent}% used · {formatBytes(profile.usedSpace)} of {formatBytes(profile.totalSpace)}
            </p>
          </section>
        </Card>
        <Card>
          <FingerprintSection userId={profile.id} />
        </Card>
        <Card>
          <TotpSection profile={profile} />
        </Card>
        <Card className="profile__wide">
          <SessionsSection />
        </Card>
        <Card className="profile__wide">
          <BlockedAccountsSection />
        </Card>
        <Card className="profile__wide">
          <PreferencesSection profile={profile} />
        </Card>
      </div>
    </section>
  );
}

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  // Primes the profile and the sessions list without holding the navigation (the sections show their own states).
  loader: ({ context: { queryClient } }) => {
    void queryClient.ensureQueryData(profileQuery).catch(() => undefined);
    void queryClient.ensureQueryData(sessionsQueryOptions()).catch(() => undefined);
  },
  ...protectedPage(ProfilePage),
});
