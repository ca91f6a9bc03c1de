/** The site the backup and restore scripts work on: the server's own settings, read from the environment. */
import { loadConfig } from '../server/config';
import type { Site } from './backupSet';

export function siteFromEnvironment(env: NodeJS.ProcessEnv = process.env): Site {
  const config = loadConfig(env);
  // A server listening on every interface is reached on loopback.
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  return {
    config,
    secretInDataDir: env.JWT_SECRET === undefined,
    serverUrl: env.BACKUP_SERVER_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`,
  };
}
