/**
 * The review case of a video identification shows the machine checks of the call it is about (the profile's
 * latest call begun before the case opened), with the hints the agent saw, in both languages; other cases and
 * reviewers without the call evidence permission see none.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MachineCheck } from '#contract/machineChecks';
import type { ReviewCase } from '#contract/review';
import type { VideoCall } from '#contract/videocalls';
import * as checksApi from '../../src/services/api/machineChecks';
import * as detailApi from '../../src/services/api/profileDetail';
import { queryClient } from '../../src/ui/app/queryClient';
import { CaseCallChecks } from '../../src/ui/screens/review/CaseCallChecks';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/profileDetail', async (importOriginal) => ({
  ...(await importOriginal<typeof detailApi>()),
  listCalls: vi.fn(),
}));
vi.mock('../../src/services/api/machineChecks', async (importOriginal) => ({
  ...(await importOriginal<typeof checksApi>()),
  getCallChecks: vi.fn(),
}));
const permissions = { list: ['view_calls_page', 'review_profiles'] };
vi.mock('../../src/ui/app/useAccounts', () => ({
  useActiveAccount: () => ({ role: 'Reviewer', permissions: permissions.list }),
}));

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces(['review', 'calls']);
});
beforeEach(() => {
  vi.clearAllMocks();
  queryClient.clear();
  permissions.list = ['view_calls_page', 'review_profiles'];
  vi.mocked(detailApi.listCalls).mockResolvedValue({
    count: 3,
    next: null,
    previous: null,
    results: [
      call(30, '2026-11-03T10:00:00.000Z'),
      call(20, '2026-11-02T10:00:00.000Z'),
      call(10, '2026-11-01T10:00:00.000Z'),
    ],
  });
  vi.mocked(checksApi.getCallChecks).mockResolvedValue(CHECKS);
});
afterEach(async () => {
  await i18next.changeLanguage('en-US');
});

const call = (id: number, createdAt: string) => ({ id, created_at: createdAt }) as unknown as VideoCall;

const theCase = (kind: ReviewCase['kind']) =>
  ({
    id: 5,
    profile: 7,
    kind,
    created_at: '2026-11-02T11:00:00.000Z',
  }) as ReviewCase;

const base = {
  call: 20,
  status: 'done' as const,
  created_at: '2026-11-02T10:05:00.000Z',
  finished_at: '2026-11-02T10:05:01.000Z',
  duration_ms: 900,
};
const CHECKS: MachineCheck[] = [
  {
    ...base,
    id: 1,
    kind: 'face_match',
    screenshots: [1, 2],
    engine: { name: 'human', version: '3' },
    result: { outcome: 'likely_same', similarity: 0.83, threshold: 0.62 },
  },
  {
    ...base,
    id: 2,
    kind: 'mrz',
    screenshots: [3],
    engine: { name: 'tesseract.js', version: '7' },
    result: {
      outcome: 'read',
      ocr_confidence: 88,
      reading: {
        format: 'TD1',
        lines: [
          'I<TURA12B345675<<<<<<<<<<<<<<<',
          '9002155F3101012TUR<<<<<<<<<<<0',
          'YILMAZ<<AYSE<GUL<<<<<<<<<<<<<<',
        ],
        fields: {
          document_code: 'I',
          issuing_state: 'TUR',
          document_number: 'A12B34567',
          last_name: 'YILMAZ',
          first_names: 'AYSE GUL',
          nationality: 'TUR',
          birth_date: '1990-02-15',
          sex: 'F',
          expiry_date: '2031-01-01',
          optional_data: null,
        },
        check_digits: { document_number: true, birth_date: true, expiry_date: true, composite: true },
        check_digits_hold: true,
        corrected: [],
        expired: false,
      },
      cross_checks: [
        { field: 'last_name', result: 'agrees', read: 'YILMAZ', on_file: 'Ayşe Gül Yılmaz' },
        { field: 'birth_date', result: 'differs', read: '1990-02-15', on_file: '1990-02-16' },
        { field: 'document_number', result: 'not_read', read: 'A12B34567', on_file: null },
      ],
    },
  },
];

const show = (kind: ReviewCase['kind']) =>
  render(
    <QueryClientProvider client={queryClient}>
      <CaseCallChecks c={theCase(kind)} />
    </QueryClientProvider>,
  );

describe('machine checks in the review case', () => {
  it.each([
    ['en-US', 'Machine checks', /Likely the same person \(0\.83\)/, 'agrees', 'differs', 'not read'],
    ['tr', 'Makine kontrolleri', /0\.83/, 'uyuyor', 'farklı', 'okunamadı'],
  ])(
    'opens the hints of the call before the case (%s)',
    async (language, open, face, agrees, differs, notRead) => {
      await i18next.changeLanguage(language);
      show('video_identification');
      // Nothing is fetched until the reviewer opens them: the card above the tabs keeps its height.
      expect(detailApi.listCalls).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole('button', { name: open }));
      expect(await screen.findByTestId('face-hint')).toHaveTextContent(face);
      // The call begun before the case opened (20), not the later one (30).
      expect(checksApi.getCallChecks).toHaveBeenCalledWith(20, expect.anything());
      const mrz = screen.getByTestId('mrz-hint');
      expect(within(mrz).getByText('A12B34567', { selector: 'code' })).toBeInTheDocument();
      const row = (field: string) => mrz.querySelector(`tr[data-field="${field}"]`) as HTMLElement;
      expect(row('last_name')).toHaveTextContent(agrees);
      expect(row('birth_date')).toHaveTextContent(differs);
      expect(row('document_number')).toHaveTextContent(notRead);
      expect(missingKeys).toEqual([]);
    },
  );

  it('says so when no call came before the case', async () => {
    vi.mocked(detailApi.listCalls).mockResolvedValue({ count: 0, next: null, previous: null, results: [] });
    show('video_identification');
    fireEvent.click(screen.getByRole('button', { name: 'Machine checks' }));
    expect(await screen.findByText(/No video call came before this case/)).toBeInTheDocument();
    expect(checksApi.getCallChecks).not.toHaveBeenCalled();
  });

  it('shows nothing for another kind of case', async () => {
    const { container } = show('aml_hit');
    await Promise.resolve();
    expect(container).toBeEmptyDOMElement();
    expect(detailApi.listCalls).not.toHaveBeenCalled();
  });

  it('shows nothing to a reviewer who may not see call evidence', async () => {
    permissions.list = ['review_profiles'];
    const { container } = show('video_identification');
    await Promise.resolve();
    expect(container).toBeEmptyDOMElement();
    expect(checksApi.getCallChecks).not.toHaveBeenCalled();
  });
});
