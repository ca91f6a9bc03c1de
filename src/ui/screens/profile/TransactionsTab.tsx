import { Callout, H4, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../services/api/http';
import { listTransactions, transactionKeys } from '../../../services/api/profileDetail';
import { useFormat } from '../../format';

const STATUS_INTENTS = {
  completed: Intent.SUCCESS,
  pending: Intent.WARNING,
  declined: Intent.DANGER,
} as const;

/** Transactions (service `transactions`): the customer's payments, with what monitoring flagged. */
export function TransactionsTab({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const { dateTime: date, money } = useFormat();
  const list = useQuery({
    queryKey: transactionKeys(profileId),
    queryFn: ({ signal }) => listTransactions(profileId, { signal }),
  });
  if (list.isError) {
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert">
        {isApiError(list.error) && list.error.detail ? list.error.detail : tc('messages.error')}
      </Callout>
    );
  }
  if (!list.data) return <Spinner size={24} />;
  const flagged = list.data.filter((tx) => tx.flag_reason).length;
  return (
    <section aria-labelledby="transactions-title">
      <div className="studio-section-title">
        <H4 id="transactions-title">{t('transactions.title')}</H4>
        {flagged > 0 && (
          <Tag intent={Intent.WARNING} icon="warning-sign">
            {t('transactions.flagged', { count: flagged })}
          </Tag>
        )}
      </div>
      {list.data.length === 0 ? (
        <p className="studio-muted">{t('transactions.empty')}</p>
      ) : (
        <HTMLTable compact striped className="studio-table" aria-label={t('transactions.title')}>
          <thead>
            <tr>
              <th scope="col">{t('transactions.date')}</th>
              <th scope="col">{t('transactions.kind')}</th>
              <th scope="col" className="studio-number">
                {t('transactions.amount')}
              </th>
              <th scope="col">{t('transactions.counterparty')}</th>
              <th scope="col">{t('transactions.status')}</th>
              <th scope="col">{t('transactions.flag')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((tx) => (
              <tr key={tx.id}>
                <td>{date(tx.occurred_at)}</td>
                <td>{t(`transactions.kinds.${tx.kind}`)}</td>
                <td className="studio-number">{money(tx.amount_minor, tx.currency)}</td>
                <td>{tx.counterparty ?? '—'}</td>
                <td>
                  <Tag minimal intent={STATUS_INTENTS[tx.status]}>
                    {t(`transactions.statuses.${tx.status}`)}
                  </Tag>
                </td>
                <td>{tx.flag_reason && <Tag intent={Intent.WARNING}>{tx.flag_reason}</Tag>}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
