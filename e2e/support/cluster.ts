/**
 * Several Sealbox server processes on one throw-away PostgreSQL database and one S3-protocol
 * server (s3rver on 127.0.0.1), as docs/operations.md "Running several instances" sets them up.
 */
import { throwawayDatabase } from '../../apps/server/test/support/services.ts';
import { s3Env, startLocalS3, type LocalS3 } from '../../apps/server/test/support/s3rver.ts';
import { startServer, type RunningServer } from './server.ts';

export interface Cluster {
  instances: RunningServer[];
  stop(): Promise<void>;
}

export async function startCluster(count: number, extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const database = await throwawayDatabase('sealbox_cluster');
  const instances: RunningServer[] = [];
  let s3: LocalS3 | undefined;
  const stop = async () => {
    for (const instance of instances) await instance.stop();
    await s3?.stop();
    await database.drop();
  };
  try {
    s3 = await startLocalS3('sealbox-cluster');
    const env = {
      ...extraEnv,
      DATABASE_URL: database.url,
      ...s3Env(s3),
    };
    // One after the other, so only the first runs the migrations.
    for (let i = 0; i < count; i++) instances.push(await startServer({ env }));
    return { instances, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
