import { Callout, H4, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { amlKeys, getAmlHistoryEntry } from '../../../services/api/aml';
import { isApiError } from '../../../services/api/http';
import { useFormat } from '../../format';
import { AmlRecordCard } from './aml/AmlRecordCard';
import { AmlScreenFrame } from './aml/AmlScreenFrame';

const STATUS_INTENTS = { clear: Intent.SUCCESS, hit: Intent.DANGER, error: Intent.WARNING } as const;

/** profile/:profileID/amlRecordDetail/:checkID (docs/product/screens.md): one AML check, its records and how each matched. */
export function AmlRecordDetailScreen() {
  const { t } = useTranslation('aml');
  const { t: ts } = useTranslation('screens');
  const { profileID, checkID } = useParams<{ profileID: string; checkID: string }>();
  const profileId = Number(profileID);
  const checkId = Number(checkID);
  const valid = Number.isInteger(profileId) && profileId > 0 && Number.isInteger(checkId) && checkId > 0;
  const entry = useEntry(profileId, checkId, valid);
  const title = ts('amlRecordDetail.title');
  return (
    <AmlScreenFrame title={title} back={{ href: '/amlHistory', label: t('actions.backToHistory') }}>
      <EntryBody entry={entry} valid={valid} />
    </AmlScreenFrame>
  );
}

function useEntry(profileId: number, checkId: number, valid: boolean) {
  return useQuery({
    queryKey: amlKeys.entry(profileId, checkId),
    queryFn: ({ signal }) => getAmlHistoryEntry(profileId, checkId, { signal }),
    enabled: valid,
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });
}

function EntryBody({ entry, valid }: { entry: ReturnType<typeof useEntry>; valid: boolean }) {
  const { t } = useTranslation('aml');
  const { t: tc } = useTranslation();
  const date = useFormat().dateTime;
  if (!valid || (entry.isError && isApiError(entry.error) && entry.error.status === 404))
    return (
      <Callout intent={Intent.WARNING} icon="warning-sign" role="alert">
        {t('detail.notFound')}
      </Callout>
    );
  if (entry.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('loadFailed')}>
        {isApiError(entry.error) && entry.error.detail ? entry.error.detail : tc('messages.error')}
      </Callout>
    );
  if (!entry.data) return <Spinner size={24} />;
  const check = entry.data;
  const rows: [string, React.ReactNode][] = [
    [t('history.date'), date(check.date)],
    [t('history.provider'), check.provider],
    [
      t('history.status'),
      <Tag key="status" minimal round intent={STATUS_INTENTS[check.status]}>
        {t(`history.statuses.${check.status}`)}
      </Tag>,
    ],
    [t('history.database'), check.scanned_database],
    [t('history.matches'), check.matches],
  ];
  return (
    <>
      <dl className="studio-fields studio-aml-summary" aria-label={t('detail.check')}>
        {rows.map(([label, value]) => (
          <div key={label} className="studio-field">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <H4>{t('records.title')}</H4>
      {check.records.length === 0 ? (
        <p className="studio-muted">{t('detail.noRecords')}</p>
      ) : (
        <div className="studio-aml-records">
          {check.records.map((record, index) => (
            <AmlRecordCard key={String(record.entry_id ?? index)} record={record} explain />
          ))}
        </div>
      )}
    </>
  );
}
