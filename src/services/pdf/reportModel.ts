/**
 * The profile report as sections of plain texts, in the interface language: one model that the HTML preview
 * and the PDF both draw, so the printed page and the file say the same.
 */
import type { TFunction } from 'i18next';
import type { ProfileStatus, RiskLevel } from '#contract/constants';
import { CHECK_KINDS, CONTENT_FIELDS } from '#contract/constants';
import { localized } from '#contract/logText';
import type { ReportData, ReportKind } from '../api/profileReport';

export type Row = readonly [label: string, value: string];

export interface ReportPageImage {
  /** The page id: the key of its bytes when the PDF embeds it. */
  id: number;
  url: string;
  caption: string;
  /** Said instead of the image when it cannot be embedded. */
  missing: string;
}

export type ReportBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'fields'; rows: Row[] }
  | { kind: 'table'; columns: string[]; rows: string[][] }
  | { kind: 'text'; text: string }
  | { kind: 'images'; images: ReportPageImage[] };

export interface ReportSection {
  id: string;
  title: string;
  blocks: ReportBlock[];
}

export interface ReportModel {
  kind: ReportKind;
  title: string;
  name: string;
  generated: string;
  sections: ReportSection[];
}

export interface ReportFormat {
  t: TFunction<'report'>;
  /** An ISO date-time in the interface language. */
  dateTime: (iso: string) => string;
  /** An ISO date (no time) in the interface language. */
  date: (iso: string) => string;
  status: (status: ProfileStatus) => string;
  risk: (risk: RiskLevel) => string;
  /** The interface language (company texts logged in both languages are shown in it); en-US when unset. */
  language?: string;
}

/** Stored genders ('female', 'F', 'm' ...) to their label keys; anything else is shown as stored. */
const GENDER_KEYS: Record<string, 'female' | 'male' | 'other'> = {
  female: 'female',
  f: 'female',
  male: 'male',
  m: 'male',
  other: 'other',
};
export function buildReportModel(data: ReportData, format: ReportFormat, generatedAt: Date): ReportModel {
  const { t } = format;
  const none = t('none');
  const text = (value: string | null | undefined) => (value?.trim() ? value : none);
  const score = (value: number | null | undefined) =>
    value === null || value === undefined ? none : String(value);
  const { profile } = data;
  const address = [profile.address.street, profile.address.city, profile.address.province]
    .filter((part) => part?.trim())
    .join(', ');
  const genderKey = profile.gender ? GENDER_KEYS[profile.gender.trim().toLowerCase()] : undefined;
  const gender = genderKey ? t(`gender.${genderKey}`) : profile.gender;

  const sections: ReportSection[] = [
    {
      id: 'identity',
      title: t('sections.identity'),
      blocks: [
        {
          kind: 'fields',
          rows: [
            [t('fields.id'), String(profile.id)],
            [t('fields.name'), text(profile.name)],
            [t('fields.idCard'), text(profile.id_card_number)],
            [t('fields.gender'), text(gender)],
            [t('fields.email'), text(profile.email)],
            [t('fields.phone'), text(profile.phone)],
            [t('fields.nationality'), text(profile.nationality)],
            [t('fields.dateOfBirth'), profile.date_of_birth ? format.date(profile.date_of_birth) : none],
            [t('fields.address'), text(address)],
            [t('fields.source'), text(profile.source)],
          ],
        },
      ],
    },
    {
      id: 'status',
      title: t('sections.status'),
      blocks: [
        {
          kind: 'fields',
          rows: [
            [t('fields.status'), format.status(profile.status)],
            ...(profile.reject_reason ? [[t('fields.rejectReason'), profile.reject_reason] as const] : []),
            [t('fields.risk'), format.risk(profile.risk_level)],
            [t('fields.created'), format.dateTime(profile.created_at)],
            [t('fields.updated'), format.dateTime(profile.updated_at)],
            [
              t('fields.lastStatus'),
              profile.last_status_date ? format.dateTime(profile.last_status_date) : none,
            ],
          ],
        },
        { kind: 'heading', text: t('sections.riskScores') },
        {
          kind: 'fields',
          rows: [
            [t('fields.phoneScore'), score(profile.risk_scores?.phone)],
            [t('fields.emailScore'), score(profile.risk_scores?.email)],
            [t('fields.ipScore'), score(profile.risk_scores?.ip)],
          ],
        },
      ],
    },
  ];

  sections.push(decisionsSection(data, format));
  if (data.kind === 'expanded') {
    sections.push(
      documentsSection(data, format, text),
      amlSection(data, format),
      callsSection(data, format),
      notesSection(data, format),
    );
  }

  return {
    kind: data.kind,
    title: t(`title.${data.kind}`),
    name: text(profile.name) === none ? t('unnamed') : (profile.name ?? ''),
    generated: format.dateTime(generatedAt.toISOString()),
    sections,
  };
}

function documentsSection(
  data: ReportData,
  format: ReportFormat,
  text: (value: string | null | undefined) => string,
): ReportSection {
  const { t } = format;
  const none = t('none');
  const blocks: ReportBlock[] = [];
  if (data.documents.length === 0) blocks.push({ kind: 'text', text: t('document.noDocuments') });
  for (const document of data.documents) {
    const className = t(`documentClass.${document.document_class}`);
    blocks.push({
      kind: 'heading',
      text: t('document.heading', { class: className, type: document.type?.name ?? none, id: document.id }),
    });
    blocks.push({
      kind: 'fields',
      rows: [
        [t('document.class'), className],
        [t('document.type'), text(document.type?.name)],
        [t('document.status'), t(`documentStatus.${document.status}`)],
        ...(document.review_reason ? [[t('document.reviewReason'), document.review_reason] as const] : []),
        [t('document.expiry'), document.expiry_date ? format.date(document.expiry_date) : none],
        [t('document.uploaded'), format.dateTime(document.created_at)],
      ],
    });
    const fields = CONTENT_FIELDS.filter((field) => document.content[field]?.trim()).map(
      (field) => [t(`contentField.${field}`), document.content[field] ?? ''] as const,
    );
    blocks.push({ kind: 'text', text: t('document.fields') });
    blocks.push(
      fields.length ? { kind: 'fields', rows: fields } : { kind: 'text', text: t('document.noFields') },
    );
    blocks.push({
      kind: 'table',
      columns: [t('document.check'), t('document.result'), t('document.score')],
      rows: CHECK_KINDS.map((check) => [
        t(`checkKind.${check}`),
        t(`checkResult.${document.checks[check].result}`),
        document.checks[check].score === null ? none : String(document.checks[check].score),
      ]),
    });
    blocks.push(
      document.alerts.length
        ? {
            kind: 'table',
            columns: [t('document.alert'), t('document.result')],
            rows: document.alerts.map((alert) => [
              `${alert.name} (${alert.code})`,
              alert.overridden
                ? `${t(`checkResult.${alert.result}`)} · ${t('document.overridden', { reason: alert.override_reason ?? none })}`
                : t(`checkResult.${alert.result}`),
            ]),
          }
        : { kind: 'text', text: t('document.noAlerts') },
    );
    const pages = [...document.pages].sort((a, b) => a.page - b.page);
    blocks.push(
      pages.length
        ? {
            kind: 'images',
            images: pages.map((page) => ({
              id: page.id,
              url: page.url,
              caption: t('document.page', { page: page.page }),
              missing: t('document.imageNotEmbedded', { page: page.page, type: page.content_type }),
            })),
          }
        : { kind: 'text', text: t('document.noPages') },
    );
    const hashed = pages.filter((page) => page.sha256);
    if (hashed.length)
      blocks.push({
        kind: 'fields',
        rows: hashed.map(
          (page) => [t('document.pageSha256', { page: page.page }), page.sha256 ?? none] as const,
        ),
      });
  }
  return { id: 'documents', title: t('sections.documents'), blocks };
}

function amlSection(data: ReportData, format: ReportFormat): ReportSection {
  const { t } = format;
  const none = t('none');
  const aml = data.aml;
  if (!aml)
    return { id: 'aml', title: t('sections.aml'), blocks: [{ kind: 'text', text: t('aml.notEnabled') }] };
  const decision =
    aml.approved === null
      ? t('aml.undecided')
      : t(aml.approved ? 'aml.approved' : 'aml.declined', { name: aml.approved_by?.name ?? none });
  const blocks: ReportBlock[] = [
    {
      kind: 'fields',
      rows: [
        [t('aml.provider'), aml.provider],
        [t('aml.score'), String(aml.score)],
        [t('aml.lists'), aml.list.length ? aml.list.join(', ') : none],
        [
          t('aml.decision'),
          aml.approved_date ? `${decision} · ${format.dateTime(aml.approved_date)}` : decision,
        ],
        [t('aml.updated'), aml.updated_at ? format.dateTime(aml.updated_at) : none],
      ],
    },
    { kind: 'heading', text: t('aml.records') },
  ];
  if (aml.records.length === 0) blocks.push({ kind: 'text', text: t('aml.noRecords') });
  for (const record of aml.records) {
    blocks.push({
      kind: 'fields',
      rows: Object.entries(record).map(([key, value]) => [key, recordValue(value, none)] as const),
    });
  }
  return { id: 'aml', title: t('sections.aml'), blocks };
}

/** An AML record's value as text: lists joined, objects as compact JSON. */
function recordValue(value: unknown, none: string): string {
  if (value === null || value === undefined || value === '') return none;
  if (Array.isArray(value)) return value.map((item) => recordValue(item, none)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function callsSection(data: ReportData, format: ReportFormat): ReportSection {
  const { t } = format;
  const none = t('none');
  const blocks: ReportBlock[] = data.calls.length
    ? [
        {
          kind: 'table',
          columns: [t('calls.status'), t('calls.start'), t('calls.end'), t('calls.agent')],
          rows: data.calls.map((call) => [
            t(`callStatus.${call.status_name}`),
            call.call_start_time ? format.dateTime(call.call_start_time) : t('calls.notStarted'),
            call.call_end_time ? format.dateTime(call.call_end_time) : none,
            call.agent?.name ?? none,
          ]),
        },
      ]
    : [{ kind: 'text', text: t('calls.noCalls') }];
  // The recordings' SHA-256, as stored: what a reviewer compares with the file they were given.
  const recorded = data.calls.filter((call) => call.recorded_file && call.recording_sha256);
  if (recorded.length)
    blocks.push(
      { kind: 'heading', text: t('calls.recordings') },
      {
        kind: 'fields',
        rows: recorded.map(
          (call) =>
            [
              t('calls.recordingSha256', {
                start: call.call_start_time ? format.dateTime(call.call_start_time) : call.id,
              }),
              call.recording_sha256 ?? none,
            ] as const,
        ),
      },
    );
  return { id: 'calls', title: t('sections.calls'), blocks };
}

function notesSection(data: ReportData, format: ReportFormat): ReportSection {
  const { t } = format;
  const blocks: ReportBlock[] = data.notes.length
    ? [
        {
          kind: 'table',
          columns: [t('notes.date'), t('notes.author'), t('notes.note')],
          rows: data.notes.map((note) => [
            format.dateTime(note.created_at),
            note.author?.name ?? t('notes.system'),
            note.kind === 'agent' ? `${t('notes.agent')}: ${note.note}` : note.note,
          ]),
        },
      ]
    : [{ kind: 'text', text: t('notes.noNotes') }];
  return { id: 'notes', title: t('sections.notes'), blocks };
}

/** The review decisions that took effect: decision, reason code, note, and under four-eyes both reviewers. */
function decisionsSection(data: ReportData, format: ReportFormat): ReportSection {
  const { t } = format;
  const none = t('none');
  const blocks: ReportBlock[] = data.decisions.length
    ? [
        {
          kind: 'table',
          columns: [
            t('decisions.date'),
            t('decisions.decision'),
            t('decisions.reason'),
            t('decisions.note'),
            t('decisions.reviewers'),
          ],
          rows: data.decisions.map((d) => [
            format.dateTime(d.at),
            t(`decisions.kinds.${d.decision}`),
            d.reason ? `${localized(d.reason, format.language ?? 'en-US')} (${d.reason_code})` : none,
            d.note ?? none,
            d.checker
              ? t('decisions.fourEyes', { maker: d.maker ?? none, checker: d.checker })
              : (d.by ?? t('notes.system')),
          ]),
        },
      ]
    : [{ kind: 'text', text: t('decisions.none') }];
  return { id: 'decisions', title: t('sections.decisions'), blocks };
}
