/**
 * Every screen, each in its own chunk (screens load on demand), with the namespaces it loads and, for the
 * screens a reviewer opens most, the first queries a navigation starts together with the chunk
 * (routeTable.ts says which route needs which screen). A screen without declared queries loads chunk and
 * namespaces only.
 */
import type { ComponentType, ReactNode } from 'react';
import { type LazyScreen, lazyScreen } from './lazyScreen';

type Layout = LazyScreen & ComponentType<{ children: ReactNode }>;

/** The shell and the section layouts are chunks of their own too: the public pages (sign-in) do not load them. */
export const Layouts = {
  Main: lazyScreen(() => import('./MainLayout'), 'MainLayout', ['calls']) as Layout,
  Profile: lazyScreen(() => import('./ProfileLayout'), 'ProfileLayout') as Layout,
  Entity: lazyScreen(() => import('./EntityLayout'), 'EntityLayout') as Layout,
};

export const Screens = {
  Login: lazyScreen(() => import('../screens/auth/LoginScreen'), 'LoginScreen'),
  ResetPassword: lazyScreen(() => import('../screens/auth/ResetPasswordScreen'), 'ResetPasswordScreen'),
  CreateAccount: lazyScreen(() => import('../screens/account/CreateAccountScreen'), 'CreateAccountScreen', [
    'signup',
  ]),
  Customers: lazyScreen(
    () => import('../screens/customers/CustomersScreen'),
    'CustomersScreen',
    ['customers', 'profile'],
    { queries: (q, { search }) => [q.customersListForSearch(search)] },
  ),
  Review: lazyScreen(() => import('../screens/review/ReviewScreen'), 'ReviewScreen', ['review', 'profile'], {
    queries: (q) => [q.reviewCasesQuery(q.FIRST_CASES), q.reviewQueuesQuery()],
  }),
  Settings: lazyScreen(() => import('../screens/settings/SettingsScreen'), 'SettingsScreen', [
    'admin',
    'sessions',
    'reviewAdmin',
  ]),
  CompanySettings: lazyScreen(
    () => import('../screens/company/CompanySettingsScreen'),
    'CompanySettingsScreen',
    ['webhooks', 'allowlist', 'payment', 'reviewAdmin'],
  ),
  Return: lazyScreen(() => import('../screens/payment/ReturnScreen'), 'ReturnScreen', ['payment']),
  Admin: lazyScreen(() => import('../screens/admin/AdminScreen'), 'AdminScreen', [
    'admin',
    'logs',
    'profile',
    'calls',
    'documents',
  ]),
  Entities: lazyScreen(() => import('../screens/entity/kyb'), 'EntitiesScreen', ['entities', 'profile']),
  PdfBasic: lazyScreen(() => import('../screens/pdf/PdfBasicScreen'), 'PdfBasicScreen', [
    'report',
    'profile',
  ]),
  PdfExpand: lazyScreen(() => import('../screens/pdf/PdfExpandScreen'), 'PdfExpandScreen', [
    'report',
    'profile',
  ]),
  Calls: lazyScreen(() => import('../screens/calls/CallsScreen'), 'CallsScreen', ['calls', 'stats']),
  Call: lazyScreen(() => import('../screens/call/CallScreen'), 'CallScreen', ['calls', 'profile']),
  Watch: lazyScreen(() => import('../screens/watch/WatchScreen'), 'WatchScreen', ['calls', 'procedure']),
  Landing: lazyScreen(() => import('../screens/landing/LandingScreen'), 'LandingScreen', ['stats']),
  Dashboard: lazyScreen(() => import('../screens/dashboard/DashboardScreen'), 'DashboardScreen', [
    'stats',
    'reviewAdmin',
  ]),
  SmartModules: lazyScreen(() => import('../screens/smartModules/SmartModulesScreen'), 'SmartModulesScreen', [
    'modules',
    'profile',
  ]),
  Swagger: lazyScreen(() => import('../screens/swagger/SwaggerScreen'), 'SwaggerScreen', ['modules']),
  Profile: lazyScreen(
    () => import('../screens/profile/ProfileScreen'),
    'ProfileScreen',
    [
      'profile',
      'report',
      'documents',
      'aml',
      'calls',
      'presence',
      'fields',
      'logs',
      'review',
      'notifications',
      // The log sidebar reads logged events with the audit log's labels too (useLogReader): without it the
      // screen suspends on its first render, and React holds the revealed screen back by 300 ms.
      'admin',
    ],
    {
      queries: (q, { params, companyId, permissions }) => [
        q.profileQuery(Number(params.profileID)),
        q.companyConfigQuery(companyId),
        q.profileCasesQuery(Number(params.profileID), permissions.includes('review_profiles')),
        q.profileChecklistsQuery(Number(params.profileID)),
        q.profileLogsQuery(Number(params.profileID)),
      ],
    },
  ),
  Document: lazyScreen(
    () => import('../screens/profile/DocumentScreen'),
    'DocumentScreen',
    ['documents', 'profile', 'presence'],
    { queries: (q, { params }) => [q.documentsQuery(Number(params.profileID))] },
  ),
  Video: lazyScreen(() => import('../screens/profile/VideoScreen'), 'VideoScreen', ['calls', 'profile']),
  AmlHistory: lazyScreen(() => import('../screens/profile/AmlHistoryScreen'), 'AmlHistoryScreen', [
    'aml',
    'profile',
  ]),
  AmlRecordDetail: lazyScreen(
    () => import('../screens/profile/AmlRecordDetailScreen'),
    'AmlRecordDetailScreen',
    ['aml', 'profile'],
  ),
  Entity: lazyScreen(() => import('../screens/entity/kyb'), 'EntityScreen', [
    'entities',
    'profile',
    'documents',
  ]),
  EntityDocuments: lazyScreen(() => import('../screens/entity/kyb'), 'EntityDocumentsScreen', [
    'entities',
    'profile',
    'documents',
  ]),
};
