import { describe, expect, it } from 'vitest';
import {
  documentFlags,
  groupByClass,
  MAX_PAGE_BYTES,
  monthsBefore,
  pageFileProblem,
} from '../../../src/machines/documents';

const doc = (over: Partial<Parameters<typeof documentFlags>[0]> = {}) => ({
  document_class: 'ID',
  expiry_date: null,
  created_at: '2026-11-01T10:00:00.000Z',
  content: {},
  ...over,
});
const today = new Date('2026-11-22T12:00:00Z');

describe('groupByClass', () => {
  it('groups in the order ID, DL, SE, PA, VA, UB, IB, SG, CO, OT, XX, keeping order inside a group', () => {
    const list = ['XX', 'UB', 'ID', 'SE', 'CO', 'ID', 'DL', 'OT', 'PA', 'VA', 'IB', 'SG'].map((c, id) => ({
      id,
      document_class: c,
    }));
    const groups = groupByClass(list);
    expect(groups.map((g) => g.documentClass)).toEqual([
      'ID',
      'DL',
      'SE',
      'PA',
      'VA',
      'UB',
      'IB',
      'SG',
      'CO',
      'OT',
      'XX',
    ]);
    expect(groups[0]?.documents.map((d) => d.id)).toEqual([2, 5]);
  });

  it('puts an unknown class last and answers nothing for no documents', () => {
    expect(
      groupByClass([{ document_class: 'ZZ' }, { document_class: 'XX' }]).map((g) => g.documentClass),
    ).toEqual(['XX', 'ZZ']);
    expect(groupByClass([])).toEqual([]);
  });
});

describe('documentFlags', () => {
  it('flags a document whose expiry date is before today', () => {
    expect(documentFlags(doc({ expiry_date: '2026-11-21' }), today).expired).toBe(true);
    expect(documentFlags(doc({ expiry_date: '2026-11-22' }), today).expired).toBe(false);
    expect(documentFlags(doc({ content: { ExpiryDate: '2020-01-01' } }), today).expired).toBe(true);
    expect(documentFlags(doc(), today).expired).toBe(false);
  });

  it('flags a utility bill older than 3 months by its issue date, else its upload date', () => {
    const bill = (over: Partial<Parameters<typeof documentFlags>[0]>) =>
      documentFlags(doc({ document_class: 'UB', ...over }), today).staleBill;
    expect(bill({ content: { IssueDate: '2026-08-21' } })).toBe(true);
    expect(bill({ content: { IssueDate: '2026-08-22' } })).toBe(false);
    expect(bill({ created_at: '2026-08-01T00:00:00Z' })).toBe(true);
    expect(bill({ created_at: '2026-10-01T00:00:00Z' })).toBe(false);
    expect(documentFlags(doc({ created_at: '2020-01-01T00:00:00Z' }), today).staleBill).toBe(false);
  });

  it('counts months by the calendar, clamped to short months', () => {
    expect(monthsBefore(new Date('2026-05-31T00:00:00Z'), 3)).toBe('2026-02-28');
    expect(monthsBefore(new Date('2026-02-15T00:00:00Z'), 3)).toBe('2025-11-15');
  });
});

describe('pageFileProblem', () => {
  it('accepts JPEG, PNG, WebP and PDF within the size limit', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'])
      expect(pageFileProblem({ name: 'x', type, size: 10 })).toBeNull();
    expect(pageFileProblem({ name: 'scan.PDF', type: '', size: 10 })).toBeNull();
  });

  it('names the problem of other files', () => {
    expect(pageFileProblem({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe('type');
    expect(pageFileProblem({ name: 'notes.txt', type: '', size: 10 })).toBe('type');
    expect(pageFileProblem({ name: 'a.png', type: 'image/png', size: 0 })).toBe('empty');
    expect(pageFileProblem({ name: 'a.png', type: 'image/png', size: MAX_PAGE_BYTES + 1 })).toBe('size');
  });
});
