/** Every screen, each in its own chunk (§7: screens load on demand). */
import type { ComponentType, ReactNode } from 'react';
import { lazyScreen } from './lazyScreen';

type Layout = ComponentType<{ children: ReactNode }>;

/** The shell and the section layouts are chunks of their own too: the public pages (sign-in) do not load them. */
export const Layouts = {
  Main: lazyScreen(() => import('./MainLayout'), 'MainLayout', ['calls']) as Layout,
  Profile: lazyScreen(() => import('./ProfileLayout'), 'ProfileLayout') as Layout,
  Entity: lazyScreen(() => import('./EntityLayout'), 'EntityLayout') as Layout,
};

export const Screens = {
  Login: lazyScreen(() => import('../screens/auth/LoginScreen'), 'LoginScreen'),
  ResetPassword: lazyScreen(() => import('../screens/auth/ResetPasswordScreen'), 'ResetPasswordScreen'),
  CreateAccount: lazyScreen(() => import('../screens/account/CreateAccountScreen'), 'CreateAccountScreen'),
  Customers: lazyScreen(() => import('../screens/customers/CustomersScreen'), 'CustomersScreen', [
    'customers',
    'profile',
  ]),
  Settings: lazyScreen(() => import('../screens/settings/SettingsScreen'), 'SettingsScreen', ['admin']),
  CompanySettings: lazyScreen(
    () => import('../screens/company/CompanySettingsScreen'),
    'CompanySettingsScreen',
    ['webhooks', 'payment'],
  ),
  Return: lazyScreen(() => import('../screens/payment/ReturnScreen'), 'ReturnScreen', ['payment']),
  Admin: lazyScreen(() => import('../screens/admin/AdminScreen'), 'AdminScreen', ['admin']),
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
  Landing: lazyScreen(() => import('../screens/landing/LandingScreen'), 'LandingScreen', ['stats']),
  Dashboard: lazyScreen(() => import('../screens/dashboard/DashboardScreen'), 'DashboardScreen', ['stats']),
  SmartModules: lazyScreen(() => import('../screens/smartModules/SmartModulesScreen'), 'SmartModulesScreen', [
    'modules',
    'profile',
  ]),
  Swagger: lazyScreen(() => import('../screens/swagger/SwaggerScreen'), 'SwaggerScreen', ['modules']),
  Profile: lazyScreen(() => import('../screens/profile/ProfileScreen'), 'ProfileScreen', [
    'profile',
    'report',
    'documents',
    'aml',
    'calls',
    'presence',
  ]),
  Document: lazyScreen(() => import('../screens/profile/DocumentScreen'), 'DocumentScreen', [
    'documents',
    'profile',
    'presence',
  ]),
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
