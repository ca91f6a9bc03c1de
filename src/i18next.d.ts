import 'i18next';
import type admin from '../locales/en-US/admin.json';
import type allowlist from '../locales/en-US/allowlist.json';
import type aml from '../locales/en-US/aml.json';
import type apiDocs from '../locales/en-US/apiDocs.json';
import type auth from '../locales/en-US/auth.json';
import type calls from '../locales/en-US/calls.json';
import type common from '../locales/en-US/common.json';
import type customer from '../locales/en-US/customer.json';
import type customers from '../locales/en-US/customers.json';
import type documents from '../locales/en-US/documents.json';
import type entities from '../locales/en-US/entities.json';
import type fields from '../locales/en-US/fields.json';
import type logs from '../locales/en-US/logs.json';
import type modules from '../locales/en-US/modules.json';
import type notifications from '../locales/en-US/notifications.json';
import type payment from '../locales/en-US/payment.json';
import type presence from '../locales/en-US/presence.json';
import type procedure from '../locales/en-US/procedure.json';
import type profile from '../locales/en-US/profile.json';
import type report from '../locales/en-US/report.json';
import type review from '../locales/en-US/review.json';
import type reviewAdmin from '../locales/en-US/reviewAdmin.json';
import type screens from '../locales/en-US/screens.json';
import type sessions from '../locales/en-US/sessions.json';
import type signup from '../locales/en-US/signup.json';
import type sso from '../locales/en-US/sso.json';
import type stats from '../locales/en-US/stats.json';
import type webhooks from '../locales/en-US/webhooks.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      screens: typeof screens;
      auth: typeof auth;
      customers: typeof customers;
      profile: typeof profile;
      report: typeof report;
      stats: typeof stats;
      documents: typeof documents;
      aml: typeof aml;
      calls: typeof calls;
      customer: typeof customer;
      entities: typeof entities;
      modules: typeof modules;
      webhooks: typeof webhooks;
      sso: typeof sso;
      admin: typeof admin;
      presence: typeof presence;
      allowlist: typeof allowlist;
      sessions: typeof sessions;
      signup: typeof signup;
      fields: typeof fields;
      payment: typeof payment;
      logs: typeof logs;
      apiDocs: typeof apiDocs;
      procedure: typeof procedure;
      review: typeof review;
      notifications: typeof notifications;
      reviewAdmin: typeof reviewAdmin;
    };
    returnNull: false;
  }
}
