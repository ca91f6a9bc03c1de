import { Callout, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { amlKeys, getAmlResult } from '../../../services/api/aml';
import { isApiError } from '../../../services/api/http';
import { useFormat } from '../../format';
import { AmlScreenFrame } from './aml/AmlScreenFrame';

const STATUS_INTENTS = { clear: Intent.SUCCESS, hit: Intent.DANGER, error: Intent.WARNING } as const;

/** profile/:id/amlHistory (docs/product/screens.md): every AML check of the profile, newest first, each opening its record. */
export function AmlHistoryScreen() {
  const { t } = useTranslation('aml');
  const { profileID } = useParams<{ profileID: string }>();
  return (
    <AmlScreenFrame
      title={t('history.title')}
      back={{ href: '/?tab=aml', label: t('actions.backToProfile') }}
    >
      <HistoryTable profileId={Number(profileID)} />
    </AmlScreenFrame>
  );
}

function HistoryTable({ profileId }: { profileId: number }) {
  const { t } = useTranslation('aml');
  const { t: tc } = useTranslation();
  const date = useFormat().dateTime;
  const result = useQuery({
    queryKey: amlKeys.result(profileId),
    queryFn: ({ signal }) => getAmlResult(profileId, { signal }),
    enabled: Number.isInteger(profileId) && profileId > 0,
  });
  if (result.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('loadFailed')}>
        {isApiError(result.error) && result.error.detail ? result.error.detail : tc('messages.error')}
      </Callout>
    );
  if (!result.data) return <Spinner size={24} />;
  const history = result.data.history;
  if (history.length === 0) return <p className="studio-muted">{t('history.empty')}</p>;
  return (
    <HTMLTable compact striped interactive className="studio-table" aria-label={t('history.label')}>
      <thead>
        <tr>
          <th scope="col">{t('history.date')}</th>
          <th scope="col">{t('history.provider')}</th>
          <th scope="col">{t('history.status')}</th>
          <th scope="col">{t('history.database')}</th>
          <th scope="col" className="studio-number">
            {t('history.matches')}
          </th>
          <th scope="col">{t('history.record')}</th>
        </tr>
      </thead>
      <tbody>
        {history.map((entry) => (
          <tr key={entry.id}>
            <td>{date(entry.date)}</td>
            <td>{entry.provider}</td>
            <td>
              <Tag minimal round intent={STATUS_INTENTS[entry.status]}>
                {t(`history.statuses.${entry.status}`)}
              </Tag>
            </td>
            <td>{entry.scanned_database}</td>
            <td className="studio-number">{entry.matches}</td>
            <td>
              <Link
                href={`/amlRecordDetail/${entry.id}`}
                aria-label={`${t('actions.openRecord')}: ${date(entry.date)}`}
              >
                {t('actions.openRecord')}
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
