/**
 * Every table of the database, one file per domain under ./schema/. This barrel is what the server, the seeds
 * and drizzle-kit (drizzle.config.ts) import.
 */
export * from './schema/aml';
export * from './schema/audit';
export * from './schema/auth';
export * from './schema/callQuality';
export * from './schema/callRouting';
export * from './schema/callWatch';
export * from './schema/checklists';
export * from './schema/companies';
export * from './schema/dashboard';
export * from './schema/documents';
export * from './schema/evidence';
export * from './schema/identProcedure';
export * from './schema/machineChecks';
export * from './schema/messages';
export * from './schema/notifications';
export * from './schema/payments';
export * from './schema/privacy';
export * from './schema/profiles';
export * from './schema/reference';
export * from './schema/review';
export * from './schema/sso';
export * from './schema/storageKeys';
export * from './schema/videoCalls';
export * from './schema/webhooks';
