/**
 * The bearer token of GET /backup/database (the embedded database's backup while the server runs), derived from
 * the server secret: only who holds the secret (the operator on the machine, scripts/backup.ts) can take the
 * whole database, and there is no further setting to keep.
 */
import { createHmac } from 'node:crypto';

export const backupToken = (jwtSecret: string): string =>
  createHmac('sha256', jwtSecret).update('idv-backup-of-the-embedded-database').digest('base64url');
