/** The text namespaces of locales/<lng>/<namespace>.json. */
export const NAMESPACES = [
  'common',
  'screens',
  'auth',
  'customers',
  'profile',
  'report',
  'documents',
  'stats',
  'aml',
  'calls',
  'entities',
  'modules',
  'webhooks',
  'admin',
  'presence',
  'allowlist',
  'sessions',
  'signup',
  'fields',
  'payment',
  'logs',
  'apiDocs',
  'procedure',
  'review',
  'notifications',
  'reviewAdmin',
  'sso',
] as const;

/** Loaded at start (the shell and the public pages); the others load with the screens that use them. */
export const START_NAMESPACES = ['common', 'screens', 'auth'] as const;
export type Namespace = (typeof NAMESPACES)[number];
