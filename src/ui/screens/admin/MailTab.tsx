import { Button, HTMLSelect, HTMLTable, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAIL_DETAILS, MAIL_STATUSES, type MailMessage, type MailStatus } from '#contract/mail';
import { isApiError } from '../../../services/api/http';
import { listMail, type MailListParams, mailKeys, retryMail } from '../../../services/api/mail';
import { LoadFailed } from '../../components/ListFilters';
import { Pager } from '../../components/Pager';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';
import { CompanyMailLanguageSelect } from './CompanyMailLanguageSelect';
import { MailPreviewPanel } from './MailPreviewPanel';
import { PAGE_SIZES, pageOf, useUrlView } from './useUrlView';

interface MailView {
  mail_status: string;
  page: number;
  size: number;
}

const DEFAULTS: MailView = { mail_status: '', page: 1, size: 20 };

function readMailView(query: URLSearchParams): MailView {
  const status = query.get('mail_status') ?? '';
  return { mail_status: MAIL_STATUSES.includes(status as MailStatus) ? status : '', ...pageOf(query) };
}

const INTENTS: Record<MailStatus, Intent> = {
  queued: Intent.WARNING,
  sent: Intent.SUCCESS,
  failed: Intent.DANGER,
};

/** Server details the tab translates; anything else is shown as received. */
const KNOWN_DETAILS: Record<string, 'notFailed' | 'codeExpired' | 'notFound'> = {
  [MAIL_DETAILS.notFailed]: 'notFailed',
  [MAIL_DETAILS.codeExpired]: 'codeExpired',
  [MAIL_DETAILS.notFound]: 'notFound',
};

/** The company's e-mail: each message's state and the relay's answer, a retry, the templates. */
export function MailTab() {
  const { t } = useTranslation('admin');
  const { t: paging } = useTranslation('admin', { keyPrefix: 'paging' });
  const [view, update] = useUrlView(readMailView, DEFAULTS);
  const request: MailListParams = {
    limit: view.size,
    offset: (view.page - 1) * view.size,
    ...(view.mail_status ? { status: view.mail_status as MailStatus } : {}),
  };
  const list = useQuery({
    queryKey: mailKeys.list(request),
    queryFn: ({ signal }) => listMail(request, { signal }),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: (message: MailMessage) => retryMail(message.id),
    onSuccess: (message) => {
      void showSuccess(t('mail.retried', { to: message.to }));
      void queryClient.invalidateQueries({ queryKey: mailKeys.all });
    },
    onError: (error) => {
      const detail = isApiError(error) ? error.detail : null;
      const known = detail ? KNOWN_DETAILS[detail] : undefined;
      void showError(known ? t(`mail.errors.${known}`) : (detail ?? t('mail.retryFailed')));
    },
  });
  const { moment } = useFormat();

  return (
    <div>
      <CompanyMailLanguageSelect />
      <div className="studio-filters">
        <HTMLSelect
          aria-label={t('mail.status')}
          value={view.mail_status}
          onChange={(event) => update({ mail_status: event.currentTarget.value })}
          options={[
            { value: '', label: t('mail.allStatuses') },
            ...MAIL_STATUSES.map((s) => ({ value: s, label: t(`mail.statuses.${s}`) })),
          ]}
        />
        <Button variant="minimal" icon="refresh" text={t('mail.refresh')} onClick={() => list.refetch()} />
      </div>
      {list.isError && (
        <LoadFailed text={t('mail.loadFailed')} retry={t('retry')} onRetry={() => list.refetch()} />
      )}
      {list.isPending && <Spinner className="studio-list-message" />}
      {list.data && list.data.count === 0 && (
        <NonIdealState icon="envelope" title={t('mail.empty.title')} description={t('mail.empty.body')} />
      )}
      {list.data && list.data.count > 0 && (
        <>
          <HTMLTable
            striped
            compact
            className="studio-table"
            aria-label={t('mail.table')}
            aria-busy={list.isFetching}
          >
            <thead>
              <tr>
                <th scope="col">{t('mail.columns.created')}</th>
                <th scope="col">{t('mail.columns.to')}</th>
                <th scope="col">{t('mail.columns.subject')}</th>
                <th scope="col">{t('mail.columns.status')}</th>
                <th scope="col">{t('mail.columns.attempts')}</th>
                <th scope="col">{t('mail.columns.answer')}</th>
                <th scope="col">{t('mail.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((message) => (
                <tr key={message.id}>
                  <td>{moment(message.created_at)}</td>
                  <td>{message.to}</td>
                  <td>{message.subject}</td>
                  <td>
                    <Tag minimal intent={INTENTS[message.status]}>
                      {t(`mail.statuses.${message.status}`)}
                    </Tag>
                    {message.sent_at && <div className="studio-mail-when">{moment(message.sent_at)}</div>}
                  </td>
                  <td>{message.attempts}</td>
                  <td className="studio-mail-answer">{message.last_error ?? '—'}</td>
                  <td>
                    {message.status === 'failed' && (
                      <Button
                        size="small"
                        icon="redo"
                        text={t('mail.retry')}
                        aria-label={t('mail.retryTo', { to: message.to })}
                        loading={retry.isPending && retry.variables?.id === message.id}
                        onClick={() => retry.mutate(message)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <Pager
            count={list.data.count}
            page={view.page}
            size={view.size}
            sizes={PAGE_SIZES}
            label={t('mail.table')}
            text={(key, values) => paging(key, { ...values })}
            onChange={update}
          />
        </>
      )}
      <MailPreviewPanel />
    </div>
  );
}
