import { useTranslation } from 'react-i18next';
import { useFormat } from '../format';

/** Nested objects deeper than this are shown as text (a registry answer is two or three levels deep). */
const MAX_DEPTH = 5;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** `mother_name`, `motherName`, `mother-name` → "Mother name": the label of a key without a translation. */
export function humaniseKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/**
 * Structured data (e.g. the government check of GET /profile/{id}/nvi) as labelled fields: each key's
 * label comes from the `fields` namespace, or is the key made readable when it has none; nested objects
 * are groups of their own fields, lists of values are joined, lists of objects are numbered groups;
 * booleans, numbers and dates are written in the interface language.
 */
export function StructuredFields({ data, className }: { data: Record<string, unknown>; className?: string }) {
  return <FieldList data={data} depth={0} className={className} />;
}

function FieldList({
  data,
  depth,
  className,
}: {
  data: Record<string, unknown>;
  depth: number;
  className?: string | undefined;
}) {
  const label = useLabel();
  return (
    <dl
      className={['studio-fields', depth > 0 ? 'studio-fields-nested' : '', className ?? ''].join(' ').trim()}
    >
      {Object.entries(data).map(([key, value]) => (
        <Field key={key} label={label(key)} value={value} depth={depth} />
      ))}
    </dl>
  );
}

function Field({ label, value, depth }: { label: string; value: unknown; depth: number }) {
  const { t } = useTranslation('fields');
  const nested = depth < MAX_DEPTH;
  if (nested && isRecord(value) && Object.keys(value).length > 0) {
    return (
      <div className="studio-field studio-field-group">
        <dt>{label}</dt>
        <dd>
          <FieldList data={value} depth={depth + 1} />
        </dd>
      </div>
    );
  }
  if (nested && Array.isArray(value) && value.length > 0 && !value.every(isScalar)) {
    return (
      <div className="studio-field studio-field-group">
        <dt>{label}</dt>
        <dd>
          <ol className="studio-field-items">
            {value.map((item, index) => (
              // The items have no identity of their own: their place in the list is what they are.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              <li key={index} aria-label={t('values.item', { number: index + 1 })}>
                {isRecord(item) ? <FieldList data={item} depth={depth + 1} /> : <Value value={item} />}
              </li>
            ))}
          </ol>
        </dd>
      </div>
    );
  }
  return (
    <div className="studio-field">
      <dt>{label}</dt>
      <dd>
        <Value value={value} />
      </dd>
    </div>
  );
}

function Value({ value }: { value: unknown }) {
  const { t } = useTranslation('fields');
  // A date-only value is a calendar day (`day` reads and writes it in UTC); a real date that is not one
  // (e.g. 2026-02-31) comes back as it was.
  const formats = useFormat();
  if (value === null || value === undefined || value === '') return <>{t('values.empty')}</>;
  if (typeof value === 'boolean') return <>{value ? t('values.yes') : t('values.no')}</>;
  if (typeof value === 'number') return <>{formats.number(value)}</>;
  if (typeof value === 'string') {
    if (DATE_ONLY.test(value)) return <>{formats.day(value)}</>;
    if (DATE_TIME.test(value)) return <>{formats.dateTime(value)}</>;
    return <>{value}</>;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <>{t('values.empty')}</>;
    if (value.every(isScalar)) {
      const words = { yes: t('values.yes'), no: t('values.no'), empty: t('values.empty') };
      return <>{value.map((item) => scalarText(item, words)).join(', ')}</>;
    }
  }
  if (isRecord(value) && Object.keys(value).length === 0) return <>{t('values.empty')}</>;
  // Deeper than MAX_DEPTH: the rest as text, still readable.
  return <code className="studio-field-raw">{JSON.stringify(value)}</code>;
}

function scalarText(value: unknown, words: { yes: string; no: string; empty: string }): string {
  if (value === null || value === undefined || value === '') return words.empty;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  return String(value);
}

/** The label of a key: its text in the `fields` namespace, else the key made readable. */
function useLabel() {
  const { t } = useTranslation('fields');
  // The whole table, not one `t` call per key: a key the namespace does not know is expected here.
  const labels = t('labels', { returnObjects: true }) as Record<string, string>;
  return (key: string) => (Object.hasOwn(labels, key) ? (labels[key] as string) : humaniseKey(key));
}
