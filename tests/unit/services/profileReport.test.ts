/**
 * The profile report's PDF: built from fixed data with Turkish letters, read back with pdf.js (text and page
 * count), in both languages.
 */
import { readFileSync } from 'node:fs';
import i18next, { type TFunction } from 'i18next';
import jpeg from 'jpeg-js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_FIELDS, type Document } from '#contract/documents';
import type { Note } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import type { VideoCall } from '#contract/videocalls';
import enReport from '../../../locales/en-US/report.json';
import trReport from '../../../locales/tr/report.json';
import type { ReportData, ReportImage } from '../../../src/services/api/profileReport';
import { buildReportModel, type ReportFormat } from '../../../src/services/pdf/reportModel';
import { buildReportPdf, type ReportFonts } from '../../../src/services/pdf/reportPdf';

const NAME = 'Şükrü Ağaoğlu İçöz';
const fonts: ReportFonts = {
  regular: new Uint8Array(readFileSync('node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
  bold: new Uint8Array(readFileSync('node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
};

const profile: Profile = {
  id: 42,
  id_card_number: '12345678901',
  name: NAME,
  gender: 'male',
  email: 'sukru@example.test',
  phone: '+90 555 000 00 00',
  nationality: 'TR',
  status: 'Pending Review',
  risk_level: 'Mid',
  source: 'web',
  company: 1,
  created_at: '2026-01-02T10:00:00.000Z',
  updated_at: '2026-01-03T10:00:00.000Z',
  last_status_date: null,
  date_of_birth: '1990-05-17',
  address: { province: 'İstanbul', city: 'Üsküdar', street: 'Çamlıca Sokak 3' },
  extra_data: {},
  quality_check: null,
  aliases: [],
  risk_scores: { phone: 10, email: 20, ip: null },
  reject_reason: null,
  summary: null,
  version: 1,
};

function png(width: number, height: number): Uint8Array {
  const image = new PNG({ width, height });
  image.data.fill(180);
  return new Uint8Array(PNG.sync.write(image));
}

function jpg(width: number, height: number): Uint8Array {
  const data = Buffer.alloc(width * height * 4, 90);
  return new Uint8Array(jpeg.encode({ data, width, height }, 80).data);
}

const document = (id: number): Document => ({
  id,
  profile: 42,
  type: { id: 1, name: 'Türkiye Cumhuriyeti Kimlik Kartı' },
  document_class: 'ID',
  upload_source: 'web',
  stream: false,
  archived: false,
  version: 1,
  status: 'approved',
  review_reason: null,
  expiry_date: '2031-01-01',
  created_at: '2026-01-02T10:00:00.000Z',
  pages: [
    {
      id: id * 10 + 1,
      page: 1,
      url: 'http://x/1.png',
      content_type: 'image/png',
      width: 400,
      height: 250,
      sha256: null,
    },
    {
      id: id * 10 + 2,
      page: 2,
      url: 'http://x/2.jpg',
      content_type: 'image/jpeg',
      width: 400,
      height: 250,
      sha256: null,
    },
    {
      id: id * 10 + 3,
      page: 3,
      url: 'http://x/3.webp',
      content_type: 'image/webp',
      width: 400,
      height: 250,
      sha256: null,
    },
  ],
  checks: {
    document: { result: 'passed', score: 98 },
    fraud: { result: 'warning', score: 55 },
    biometric: { result: 'passed', score: 91 },
    cross: { result: 'not_run', score: null },
  },
  alerts: [
    {
      id: 1,
      code: 'MRZ',
      name: 'MRZ check',
      result: 'failed',
      overridden: true,
      override_reason: 'Okunaklı',
      overridden_at: null,
    },
  ],
  content: {
    ...Object.fromEntries(CONTENT_FIELDS.map((field) => [field, null])),
    FirstName: 'Şükrü',
    LastName: 'Ağaoğlu İçöz',
    IDNumber: '12345678901',
  } as Document['content'],
  overridden_fields: [],
  device_data: null,
});

const notes: Note[] = Array.from({ length: 80 }, (_, i) => ({
  id: i + 1,
  profile: 42,
  kind: i % 5 === 0 ? 'agent' : 'note',
  note: `Not ${i + 1}: müşteri görüşmesi yapıldı, belgeler incelendi ve ğüşıöç harfleri doğru göründü.`,
  author: { id: 1, name: 'Gülşen Yıldız' },
  created_at: '2026-01-04T10:00:00.000Z',
}));

const calls: VideoCall[] = Array.from({ length: 12 }, (_, i) => ({
  id: i + 1,
  profile: 42,
  agent: { id: 1, name: 'Gülşen Yıldız' },
  room_id: `room-${i}`,
  status: 3,
  status_name: 'COMPLETE',
  call_start_time: '2026-01-04T09:00:00.000Z',
  call_end_time: '2026-01-04T09:10:00.000Z',
  recorded_file: null,
  end_reason: null,
  outcome_reason: null,
  recording_sha256: null,
  created_at: '2026-01-04T09:00:00.000Z',
}));

const decisions: ReportData['decisions'] = [
  {
    case_id: 7,
    decision: 'reject',
    reason_code: 'face_mismatch',
    reason: { 'en-US': 'Face does not match the document', tr: 'Yüz belgeyle eşleşmiyor' },
    note: 'Selfie başka birine ait',
    at: '2026-01-06T10:00:00.000Z',
    by: 'Gülşen Yıldız',
  },
  {
    case_id: 8,
    decision: 'approve',
    reason_code: null,
    reason: null,
    note: null,
    maker: 'Umut Agent',
    checker: 'Rana Reviewer',
    at: '2026-01-07T10:00:00.000Z',
    by: 'Rana Reviewer',
  },
];
const basic: ReportData = {
  kind: 'basic',
  profile,
  documents: [],
  aml: null,
  calls: [],
  notes: [],
  decisions: [],
};
const expanded: ReportData = {
  kind: 'expanded',
  profile,
  documents: [document(1), document(2)],
  aml: {
    profile: 42,
    provider: 'local',
    list: ['OFAC', 'UN'],
    score: 12,
    records: [{ name: 'Şükrü A.', list: 'OFAC', aliases: ['Ş. A.'] }],
    approved: true,
    approved_by: { id: 1, name: 'Gülşen Yıldız' },
    approved_date: '2026-01-05T10:00:00.000Z',
    updated_at: '2026-01-05T10:00:00.000Z',
    history: [],
  },
  calls,
  notes,
  decisions,
};

const images = new Map<number, ReportImage>([
  [11, { bytes: png(400, 250), format: 'PNG' }],
  [12, { bytes: jpg(400, 250), format: 'JPEG' }],
  [21, { bytes: png(300, 600), format: 'PNG' }],
  [22, { bytes: jpg(800, 400), format: 'JPEG' }],
]);

let t: Record<'en-US' | 'tr', TFunction<'report'>>;
beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({
    lng: 'en-US',
    resources: { 'en-US': { report: enReport }, tr: { report: trReport } },
    interpolation: { escapeValue: false },
  });
  t = { 'en-US': instance.getFixedT('en-US', 'report'), tr: instance.getFixedT('tr', 'report') };
});

function build(data: ReportData, language: 'en-US' | 'tr' = 'en-US') {
  const format: ReportFormat = {
    t: t[language],
    dateTime: (iso) => new Date(iso).toISOString().slice(0, 16).replace('T', ' '),
    date: (iso) => iso.slice(0, 10),
    status: (status) => status,
    risk: (risk) => risk,
    language,
  };
  const model = buildReportModel(data, format, new Date('2026-02-01T12:00:00.000Z'));
  const bytes = buildReportPdf({
    model,
    fonts,
    images,
    footer: (page, pages) => t[language]('footer', { date: model.generated, page, pages }),
  });
  return { model, bytes };
}

/** The text of every page, as pdf.js reads it. */
async function pagesText(bytes: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: bytes.slice(), useSystemFonts: false });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return pages;
}

const header = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5));

describe('profile report PDF', () => {
  it('basic: one page with the identity, in Turkish letters, and the footer', async () => {
    const { bytes } = build(basic);
    expect(header(bytes)).toBe('%PDF-');
    const pages = await pagesText(bytes);
    expect(pages).toHaveLength(1);
    const text = pages[0] ?? '';
    expect(text).toContain(NAME);
    expect(text).toContain('Çamlıca Sokak 3, Üsküdar, İstanbul');
    expect(text).toContain('Profile report');
    expect(text).toContain('Page 1 of 1');
    expect(text).not.toContain('Documents');
  });

  it('expanded: a long report runs over pages, each numbered, with images embedded', async () => {
    const { bytes } = build(expanded);
    expect(header(bytes)).toBe('%PDF-');
    const pages = await pagesText(bytes);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    pages.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const all = pages.join('\n');
    expect(all).toContain(NAME);
    expect(all).toContain('Türkiye Cumhuriyeti Kimlik Kartı');
    expect(all).toContain('Not 80: müşteri görüşmesi yapıldı');
    expect(all).toContain('OFAC, UN');
    expect(all).toContain('Page 3: the image (image/webp) could not be embedded.');
    // Four page images (two PNG, two JPEG) become image objects.
    const raw = new TextDecoder('latin1').decode(bytes);
    expect(raw.match(/\/Subtype \/Image/g)?.length).toBeGreaterThanOrEqual(4);
    expect(raw).toContain('/DCTDecode');
  });

  it('prints the SHA-256 of each stored recording and document page', () => {
    const recordingHash = 'a'.repeat(64);
    const pageHash = 'b'.repeat(64);
    const data: ReportData = {
      ...expanded,
      calls: expanded.calls.map((call, i) =>
        i === 0 ? { ...call, recorded_file: 'http://x/r.webm', recording_sha256: recordingHash } : call,
      ),
      documents: expanded.documents.map((document, i) =>
        i === 0
          ? {
              ...document,
              pages: document.pages.map((page, p) => (p === 0 ? { ...page, sha256: pageHash } : page)),
            }
          : document,
      ),
    };
    const rows = build(data)
      .model.sections.flatMap((section) => section.blocks)
      .flatMap((block) => (block.kind === 'fields' ? block.rows : []));
    expect(rows).toContainEqual(['Recording of 2026-01-04 09:00 (SHA-256)', recordingHash]);
    expect(rows).toContainEqual(['Page 1 SHA-256', pageHash]);
  });

  it('lists the review decisions with the reason code in the reader’s language, the note and both reviewers', async () => {
    const en = build(expanded).model.sections.find((s) => s.id === 'decisions');
    expect(en?.title).toBe('Review decisions');
    expect(en?.blocks).toEqual([
      {
        kind: 'table',
        columns: ['Date', 'Decision', 'Reason code', 'Note', 'Reviewers'],
        rows: [
          [
            '2026-01-06 10:00',
            'Reject',
            'Face does not match the document (face_mismatch)',
            'Selfie başka birine ait',
            'Gülşen Yıldız',
          ],
          ['2026-01-07 10:00', 'Approve', '—', '—', 'Umut Agent (maker), Rana Reviewer (checker)'],
        ],
      },
    ]);
    const tr = build(expanded, 'tr').model.sections.find((s) => s.id === 'decisions');
    expect(tr?.blocks[0]).toMatchObject({
      rows: [
        [
          expect.any(String),
          'Reddet',
          'Yüz belgeyle eşleşmiyor (face_mismatch)',
          expect.any(String),
          'Gülşen Yıldız',
        ],
        [expect.any(String), 'Onayla', '—', '—', 'Umut Agent (karar veren), Rana Reviewer (onaylayan)'],
      ],
    });
    const pdf = (await pagesText(build(expanded).bytes)).join('\n');
    expect(pdf).toContain('Face does not match the document (face_mismatch)');
    expect(build(basic).model.sections.find((s) => s.id === 'decisions')?.blocks).toEqual([
      { kind: 'text', text: 'No review decision yet.' },
    ]);
  });

  it('tr: Turkish headings and footer', async () => {
    const { bytes } = build(expanded, 'tr');
    const pages = await pagesText(bytes);
    const all = pages.join('\n');
    expect(all).toContain('Genişletilmiş profil raporu');
    expect(all).toContain('Görüntülü görüşmeler');
    expect(all).toContain(`Sayfa ${pages.length} / ${pages.length}`);
    expect(all).toContain(NAME);
  });
});
