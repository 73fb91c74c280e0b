import { Elysia } from 'elysia';
import type { Logger } from '../../ports/logger.ts';

export interface HealthCheckable {
  health(): Promise<void>;
}

export type ComponentHealth = 'ok' | 'error';

export interface HealthReport {
  status: 'ok' | 'degraded';
  db: ComponentHealth;
  blobs: ComponentHealth;
  events: ComponentHealth;
}

const CHECK_TIMEOUT_MS = 3000;

/** For load balancers and operators: 200 when every adapter answers, 503 otherwise. */
export function healthRoutes(deps: { db: HealthCheckable; blobs: HealthCheckable; events: HealthCheckable; logger: Logger }) {
  const check = async (name: string, component: HealthCheckable): Promise<ComponentHealth> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    try {
      await Promise.race([component.health(), timeout]);
      return 'ok';
    } catch (error) {
      deps.logger.warn('health check failed', { component: name, error: String(error) });
      return 'error';
    } finally {
      clearTimeout(timer);
    }
  };

  return new Elysia({ name: 'health-routes' }).get('/api/health', async ({ set }): Promise<HealthReport> => {
    const [db, blobs, events] = await Promise.all([
      check('db', deps.db),
      check('blobs', deps.blobs),
      check('events', deps.events),
    ]);
    const healthy = db === 'ok' && blobs === 'ok' && events === 'ok';
    set.status = healthy ? 200 : 503;
    return { status: healthy ? 'ok' : 'degraded', db, blobs, events };
  });
}
