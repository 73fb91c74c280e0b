import { UsageBar } from '@sealbox/ui';
import type { Profile } from '../auth/index.ts';
import { formatBytes } from './format.ts';
import './unfinished.css';
import './profile.css';

const percentOf = (bytes: number, total: number) => (total > 0 && bytes > 0 ? Math.min(100, (bytes / total) * 100) : 0);

/**
 * Profile's storage: what is stored and what unfinished uploads hold aside (docs/protocol.md
 * "Quota"), together what a new upload must fit beside.
 */
export function StorageSection({ profile }: { profile: Profile }) {
  const { usedSpace: used, reservedSpace: reserved, totalSpace: total } = profile;
  const percent = Math.trunc(percentOf(used, total));
  const free = Math.max(0, total - used - reserved);
  const said = `${percent}% used${reserved > 0 ? `, ${formatBytes(reserved)} reserved by unfinished uploads` : ''}`;
  return (
    <section className="profile-section" aria-labelledby="storage-title">
      <h2 id="storage-title">Storage</h2>
      <UsageBar
        used={percent}
        reserved={reserved > 0 ? Math.max(1, percentOf(reserved, total)) : 0}
        label="Storage used"
        valueText={said}
      />
      <p className="muted">
        {percent}% used · {formatBytes(used)} of {formatBytes(total)}
      </p>
      {reserved > 0 && (
        <>
          <ul className="storage-legend" aria-label="Storage">
            <li>
              <span className="storage-legend__swatch" aria-hidden="true" />
              Used {formatBytes(used)}
            </li>
            <li>
              <span className="storage-legend__swatch storage-legend__swatch--reserved" aria-hidden="true" />
              Reserved {formatBytes(reserved)}
            </li>
            <li>Free {formatBytes(free)}</li>
          </ul>
          <p className="muted">
            Unfinished uploads hold {formatBytes(reserved)} until they finish or end.{' '}
            <a href="#unfinished-title">See who started them</a>.
          </p>
        </>
      )}
    </section>
  );
}
