import { Button, Callout, Card, H4, HTMLTable, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Payment } from '#contract/payments';
import { getPaymentHistory, paymentKeys } from '../../../services/api/payments';
import { useFormat } from '../../format';
import { refundedInFull, STATUS_INTENT, useMoney, usePaymentErrorText } from './format';

const PAGE = 10;

/** Milliseconds until the first pending checkout's end (a second after it), or false when none is pending. */
export function untilFirstExpiry(payments: Payment[] | undefined, now = Date.now()): number | false {
  const ends = (payments ?? [])
    .filter((p) => p.status === 'open' && p.expires_at)
    .map((p) => Date.parse(p.expires_at ?? ''));
  if (ends.length === 0) return false;
  return Math.max(1000, Math.min(...ends) - now + 1000);
}

/** The company's payments, newest first, with status, refunds and receipt. */
export function HistoryCard() {
  const { t } = useTranslation('payment');
  const errorText = usePaymentErrorText();
  const money = useMoney();
  const { dateTime: formatDate, time } = useFormat();
  const [limit, setLimit] = useState(PAGE);
  const history = useQuery({
    queryKey: paymentKeys.history(limit),
    queryFn: ({ signal }) => getPaymentHistory(limit, { signal }),
    placeholderData: keepPreviousData,
    // A pending checkout is read again when its time is up, so it turns "Expired" on the screen.
    refetchInterval: (query) => untilFirstExpiry(query.state.data?.results),
  });

  let body: React.ReactNode;
  if (history.isPending) body = <Spinner size={24} aria-label={t('history.title')} />;
  else if (history.isError)
    body = (
      <Callout intent="danger" title={t('history.loadFailed')}>
        <p>{errorText(history.error)}</p>
        <Button icon="refresh" onClick={() => void history.refetch()} text={t('return.checkAgain')} />
      </Callout>
    );
  else if (history.data.results.length === 0)
    body = <NonIdealState icon="history" title={t('history.empty')} description={t('history.emptyHint')} />;
  else
    body = (
      <>
        <HTMLTable compact striped aria-label={t('history.title')}>
          <thead>
            <tr>
              <th scope="col">{t('history.date')}</th>
              <th scope="col">{t('history.package')}</th>
              <th scope="col" className="studio-payment-amount">
                {t('history.amount')}
              </th>
              <th scope="col">{t('history.status')}</th>
              <th scope="col">{t('history.receipt')}</th>
            </tr>
          </thead>
          <tbody>
            {history.data.results.map((payment) => (
              <tr key={payment.id}>
                <td>{formatDate(payment.paid_at ?? payment.created_at)}</td>
                <td>{payment.package?.name ?? '—'}</td>
                <td className="studio-payment-amount">{money(payment.amount, payment.currency)}</td>
                <td>
                  <Tag intent={STATUS_INTENT[payment.status]} minimal>
                    {t(`status.${payment.status}`)}
                  </Tag>
                  {payment.refunded_amount > 0 && (
                    <>
                      {' '}
                      <Tag intent="warning" minimal>
                        {refundedInFull(payment)
                          ? t('history.refundedInFull')
                          : t('history.refunded', {
                              amount: money(payment.refunded_amount, payment.currency),
                            })}
                      </Tag>
                    </>
                  )}
                  {payment.status === 'open' && payment.expires_at && (
                    <span className="studio-muted">
                      {' '}
                      {t('history.expiresAt', { time: time(payment.expires_at) })}
                    </span>
                  )}
                </td>
                <td>
                  {payment.receipt_number && payment.receipt_url ? (
                    <a href={payment.receipt_url} target="_blank" rel="noopener noreferrer">
                      <Icon icon="document-open" size={12} />{' '}
                      {t('history.viewReceipt', { number: payment.receipt_number })}
                    </a>
                  ) : payment.receipt_number ? (
                    <span>{payment.receipt_number}</span>
                  ) : (
                    <span className="studio-muted">{t('history.noReceipt')}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <div className="studio-payment-actions">
          <span className="studio-muted">{t('history.count', { count: history.data.count })}</span>
          {history.data.count > history.data.results.length && (
            <Button
              text={t('history.more')}
              loading={history.isFetching}
              onClick={() => setLimit((was) => was + PAGE)}
            />
          )}
        </div>
      </>
    );

  return (
    <Card>
      <H4>{t('history.title')}</H4>
      {body}
    </Card>
  );
}
