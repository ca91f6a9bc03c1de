import { existsSync } from 'node:fs';
import pg from 'pg';
import { distBasePort } from '../../playwright.distributed.config';
import { startCluster } from '../../scripts/cluster';
import { buildStudioIfStale } from '../../scripts/studioBuild';

/** Copies of agent@acme.test (role User, same password) for the answer race: dist-agent-N@acme.test. */
export const RACE_AGENTS = 20;

/** Starts the deployment once for every test; Playwright runs the returned teardown at the end. */
export default async function setup(): Promise<() => Promise<void>> {
  if (!existsSync('dist/index.html')) buildStudioIfStale();
  const started = Date.now();
  const cluster = await startCluster({
    basePort: distBasePort,
    servers: 2,
    // The rolling restart's webhook receiver listens on loopback.
    env: { WEBHOOK_ALLOW_PRIVATE: '1' },
    log: (line) => console.log(`[cluster ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`),
  });
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  await db.query(
    `INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
     SELECT u.company_id, 'dist-agent-' || n || '@acme.test', 'Agent', 'No. ' || n, u.password_hash, 'User'
       FROM generate_series(1, $1::int) AS n,
            (SELECT company_id, password_hash FROM users WHERE email = 'agent@acme.test' LIMIT 1) AS u`,
    [RACE_AGENTS],
  );
  await db.end();
  process.env.DIST_DATABASE_URL = cluster.databaseUrl;
  process.env.DIST_CLUSTER_DIR = cluster.dir;
  process.env.DIST_REDIS_URL = cluster.redisUrl;
  process.env.DIST_S3_ENDPOINT = cluster.s3Endpoint;
  process.env.DIST_SERVERS = JSON.stringify(
    cluster.servers.map((s) => ({ name: s.name, url: s.url, pid: s.child.pid })),
  );
  return () => cluster.stop();
}
