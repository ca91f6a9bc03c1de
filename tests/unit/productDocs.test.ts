/**
 * The product reference in docs/product/ says what the contract says: its tables of roles, routes, statuses,
 * errors and limits are checked against the constants they describe, and every docs/product/ link in the code
 * resolves to a file and, where it names one, a heading.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AML_NO_NAME, AML_NO_PERMISSION, AML_NOTHING_TO_APPROVE } from '#contract/aml';
import { EMAIL_MESSAGE } from '#contract/auth';
import { CALENDAR_DATE_MESSAGE, CONTROL_CHARACTERS_MESSAGE, MAX_ID } from '#contract/common';
import {
  CALL_CLOSED,
  CALL_STATUSES,
  CALLS_TOO_FAST,
  FIRST_FINAL_CALL_STATUS,
  JOIN_LINK_USED,
  MAX_RECORDING_BYTES,
  MAY_NOT_TAKE_CALLS,
  PERMISSIONS,
  PROFILE_STATUSES,
  RECORDING_EXISTS,
  RECORDING_TOO_LARGE,
  REJECT_REASON_MIN,
  ROLE_PERMISSIONS,
  ROLES,
  STORAGE_QUOTA_EXCEEDED,
  UPLOADS_AT_ONCE,
  UPLOADS_TOO_FAST,
} from '#contract/constants';
import { FIELD_MAX_LENGTH, MAX_PAGE_BYTES, MAX_PAGES } from '#contract/documentRules';
import { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOTS_PER_CALL } from '#contract/identProcedure';
import { MAX_ALLOWLIST_LABEL } from '#contract/ipRanges';
import { SNIPPET_MAX } from '#contract/notifications';
import { MAX_PASSKEY_NAME } from '#contract/passkeys';
import { PASSWORD_MIN, PASSWORD_RULE_DETAIL } from '#contract/passwords';
import { MINIMUM_COMMITMENT_VERIFICATIONS } from '#contract/payments';
import {
  ADDRESS_MESSAGE,
  DUPLICATE_ID_CARD_MESSAGE,
  REJECT_REASON_MESSAGE,
  STATUS_CHANGE_FAILED,
} from '#contract/profileWrites';
import * as rateLimits from '#contract/rateLimits';
import { REVIEW_DETAILS } from '#contract/review';
import { METRICS_DEFAULT_DAYS } from '#contract/reviewMetrics';
import { ACCOUNT_DISABLED_DETAIL, SESSION_END_DETAILS } from '#contract/sessionEnd';
import { CUSTOMER_NOT_CONNECTED } from '#contract/socket';
import { SSO_DETAILS } from '#contract/sso';
import {
  BITOOL_DEFAULT_MONTHS,
  BITOOL_MAX_DAYS,
  REPORT_MAX_DAYS,
  WEEKLY_UP_TO_DAYS,
} from '#contract/statsRange';
import { VERSION_CONFLICT } from '#contract/versioning';
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX, WEBHOOK_URL_MESSAGE } from '#contract/webhooks';
import { STATUS_TRANSITIONS } from '../../server/domain/profileWrites';
import { DETAILS } from '../../server/errors';
import { ROUTE_RULES } from '../../src/services/permissions';

const root = join(import.meta.dirname, '../..');
const doc = (name: string) => readFileSync(join(root, 'docs/product', name), 'utf8');

/** The rows of the markdown table that follows `marker`, as arrays of trimmed cells (header and rule skipped). */
function tableAfter(text: string, marker: string): string[][] {
  const lines = text.slice(text.indexOf(marker)).split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (text: string) =>
  new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|css|sql)$/.test(name) ? [path] : [];
  });
}

describe('docs/product/roles.md', () => {
  const roles = doc('roles.md');

  it("lists each role's permissions as ROLE_PERMISSIONS has them", () => {
    const rows = tableAfter(roles, '<!-- role-permissions');
    expect(rows.map((row) => row[0])).toEqual(PERMISSIONS.map((permission) => `\`${permission}\``));
    for (const [permission, ...cells] of rows) {
      ROLES.forEach((role, index) => {
        const has = ROLE_PERMISSIONS[role].includes(
          permission?.replaceAll('`', '') as (typeof PERMISSIONS)[number],
        );
        expect(cells[index], `${role} ${permission}`).toBe(has ? 'yes' : 'no');
      });
    }
  });

  it('gives every permission a line of its own', () => {
    const rows = tableAfter(roles, '## Permissions');
    expect(rows.map((row) => row[0])).toEqual(PERMISSIONS.map((permission) => `\`${permission}\``));
  });

  it("states the studio's route table as ROUTE_RULES has it", () => {
    const rows = tableAfter(roles, '<!-- route-permissions');
    const paths = (segments: readonly string[]) => segments.map((segment) => `\`/${segment}\``).join(', ');
    expect(rows).toEqual(
      ROUTE_RULES.map((rule) => [
        paths(rule.segments),
        `\`${rule.permission}\`${rule.admin ? ' and the Admin role' : ''}`,
      ]),
    );
  });
});

describe('docs/product/states.md', () => {
  const states = doc('states.md');

  it('lists the customer statuses in the order of PROFILE_STATUSES', () => {
    const list = [...states.slice(states.indexOf('<!-- customer-statuses')).matchAll(/^\d+\. (.+)$/gm)]
      .slice(0, PROFILE_STATUSES.length + 1)
      .map((match) => match[1]);
    expect(list.slice(0, PROFILE_STATUSES.length)).toEqual([...PROFILE_STATUSES]);
  });

  it('states the transitions as STATUS_TRANSITIONS has them', () => {
    const rows = tableAfter(states, '<!-- status-transitions');
    expect(rows).toEqual(PROFILE_STATUSES.map((from) => [from, STATUS_TRANSITIONS[from].join(', ')]));
  });

  it('numbers the call statuses by their position in CALL_STATUSES', () => {
    const rows = tableAfter(states, '<!-- call-statuses');
    expect(rows).toEqual(CALL_STATUSES.map((status, code) => [String(code), status]));
  });
});

describe('docs/product/errors.md', () => {
  const errors = doc('errors.md');

  it('holds every detail the server answers from the catalogue constants', () => {
    const details = [
      ...Object.values(DETAILS),
      ...Object.values(SESSION_END_DETAILS),
      ...Object.values(REVIEW_DETAILS),
      ...Object.values(SSO_DETAILS),
      ...Object.values(rateLimits).filter((value) => typeof value === 'string'),
      ACCOUNT_DISABLED_DETAIL,
      REJECT_REASON_MESSAGE,
      STATUS_CHANGE_FAILED,
      ADDRESS_MESSAGE,
      DUPLICATE_ID_CARD_MESSAGE,
      VERSION_CONFLICT,
      AML_NO_PERMISSION,
      AML_NOTHING_TO_APPROVE,
      AML_NO_NAME,
      CALL_CLOSED,
      MAY_NOT_TAKE_CALLS,
      RECORDING_TOO_LARGE,
      RECORDING_EXISTS,
      STORAGE_QUOTA_EXCEEDED,
      CALLS_TOO_FAST,
      JOIN_LINK_USED,
      UPLOADS_TOO_FAST,
      UPLOADS_AT_ONCE,
      CUSTOMER_NOT_CONNECTED,
      EMAIL_MESSAGE,
      PASSWORD_RULE_DETAIL,
      WEBHOOK_URL_MESSAGE,
      CONTROL_CHARACTERS_MESSAGE,
      CALENDAR_DATE_MESSAGE,
    ];
    const missing = details.filter((detail) => !errors.includes(detail));
    expect(missing).toEqual([]);
  });
});

describe('docs/product/constants.md', () => {
  const constants = doc('constants.md');
  const MB = 1024 * 1024;

  it.each([
    ['REJECT_REASON_MIN', String(REJECT_REASON_MIN)],
    ['FIELD_MAX_LENGTH', String(FIELD_MAX_LENGTH)],
    ['WEBHOOK_URL_MAX', String(WEBHOOK_URL_MAX)],
    ['WEBHOOK_DESCRIPTION_MAX', String(WEBHOOK_DESCRIPTION_MAX)],
    ['MAX_PASSKEY_NAME', String(MAX_PASSKEY_NAME)],
    ['MAX_ALLOWLIST_LABEL', String(MAX_ALLOWLIST_LABEL)],
    ['SNIPPET_MAX', String(SNIPPET_MAX)],
    ['PASSWORD_MIN', String(PASSWORD_MIN)],
    ['MAX_ID', String(MAX_ID)],
    ['MAX_RECORDING_BYTES', `${MAX_RECORDING_BYTES / MB} MB`],
    ['MAX_PAGE_BYTES', `${MAX_PAGE_BYTES / MB} MB`],
    ['MAX_PAGES', String(MAX_PAGES)],
    ['MAX_SCREENSHOT_BYTES', `${MAX_SCREENSHOT_BYTES / MB} MB`],
    ['MAX_SCREENSHOTS_PER_CALL', String(MAX_SCREENSHOTS_PER_CALL)],
    ['BITOOL_DEFAULT_MONTHS', String(BITOOL_DEFAULT_MONTHS)],
    ['BITOOL_MAX_DAYS', String(BITOOL_MAX_DAYS)],
    ['WEEKLY_UP_TO_DAYS', String(WEEKLY_UP_TO_DAYS)],
    ['REPORT_MAX_DAYS', String(REPORT_MAX_DAYS)],
    ['METRICS_DEFAULT_DAYS', String(METRICS_DEFAULT_DAYS)],
    ['FIRST_FINAL_CALL_STATUS', String(FIRST_FINAL_CALL_STATUS)],
    ['MINIMUM_COMMITMENT_VERIFICATIONS', String(MINIMUM_COMMITMENT_VERIFICATIONS)],
  ])('states %s as %s', (name, value) => {
    const row = constants.split('\n').find((line) => line.startsWith(`| \`${name}\``));
    expect(row?.split('|')[2]?.trim()).toBe(value);
  });
});

describe('links from the code to docs/product/', () => {
  const files = ['src', 'server', 'contract'].flatMap(sourceFiles);
  const links = files.flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/docs\/product\/[\w.-]+\.md(#[\w-]+)?/g)].map(
      (match) => ({ file, link: match[0], anchor: match[1]?.slice(1) }),
    ),
  );

  it('are found (the check reads something)', () => {
    expect(links.length).toBeGreaterThan(100);
  });

  it('name files that exist and headings they hold', () => {
    const broken = links.filter(({ link, anchor }) => {
      const path = join(root, link.split('#')[0] ?? '');
      if (!existsSync(path)) return true;
      return anchor !== undefined && !anchorsOf(readFileSync(path, 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});
