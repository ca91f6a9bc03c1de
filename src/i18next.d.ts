import 'i18next';
import type auth from '../locales/en-US/auth.json';
import type common from '../locales/en-US/common.json';
import type customers from '../locales/en-US/customers.json';
import type profile from '../locales/en-US/profile.json';
import type report from '../locales/en-US/report.json';
import type screens from '../locales/en-US/screens.json';

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
    };
    returnNull: false;
  }
}
