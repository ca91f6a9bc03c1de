import {
  Button,
  Callout,
  Card,
  Checkbox,
  DialogBody,
  DialogFooter,
  FormGroup,
  H4,
  H5,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SECRET_GRACE_DEFAULT_HOURS,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookLog,
  type WebhookTestResult,
} from '#contract/webhooks';
import {
  type LogFilter,
  listEndpointLogs,
  retryDeliveries,
  revealSecret,
  rotateSecret,
  sendTestEvent,
  webhookKeys,
} from '../../../services/api/webhooks';
import { Dialog, Drawer } from '../../components/Dialog';
import { useErrorText } from '../../components/useErrorText';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';
import { PasswordPrompt } from '../settings/PasswordPrompt';
import { DeliveryProblemText } from './deliveryProblem';

const GRACE_CHOICES = [0, 1, 24, 72, 168];
/** After a retry the log is read again every second for up to 30 s, until the new attempt is listed. */
const RETRY_POLL_MS = 1000;
const RETRY_WATCH_MS = 30_000;

/** One endpoint: its signing secret (reveal, rotate), a test event with the answer inline, and its log. */
export function EndpointDetail({
  endpoint,
  isAdmin,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  isAdmin: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('webhooks');
  return (
    <Card aria-label={t('detail.title', { url: endpoint.url })}>
      <div className="studio-webhooks-head">
        <H4 className="studio-webhooks-url">{t('detail.title', { url: endpoint.url })}</H4>
        <Button icon="cross" variant="minimal" aria-label={t('detail.close')} onClick={onClose} />
      </div>
      {isAdmin && <SecretPanel endpoint={endpoint} />}
      {isAdmin && <TestPanel endpoint={endpoint} />}
      <DeliveryLog endpoint={endpoint} isAdmin={isAdmin} />
    </Card>
  );
}

function SecretPanel({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const formatDate = useFormat().dateTime;
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);
  const [grace, setGrace] = useState(SECRET_GRACE_DEFAULT_HOURS);
  const [busy, setBusy] = useState(false);

  const reveal = async (password: string) => {
    setBusy(true);
    setPasswordError(null);
    try {
      setSecret(await revealSecret(endpoint.id, password));
      setAsking(false);
    } catch (error) {
      setPasswordError(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const rotate = async () => {
    setBusy(true);
    try {
      const answer = await rotateSecret(endpoint.id, grace);
      setSecret(answer.secret);
      setRotating(false);
      void showSuccess(t('detail.rotated'));
      await queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints() });
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormGroup label={t('detail.secret')} helperText={t('detail.secretHelp')}>
      <div className="studio-webhooks-secret">
        <code data-testid="webhook-secret">{secret ?? 'whsec_••••••••••••••••••••••••'}</code>
        {secret === null ? (
          <Button icon="eye-open" text={t('detail.reveal')} onClick={() => setAsking(true)} />
        ) : (
          <>
            <Button icon="eye-off" text={t('detail.hide')} onClick={() => setSecret(null)} />
            <Button
              icon="duplicate"
              text={t('detail.copy')}
              onClick={() =>
                void navigator.clipboard?.writeText(secret).then(() => showSuccess(t('detail.copied')))
              }
            />
          </>
        )}
        <Button icon="refresh" text={t('detail.rotate')} onClick={() => setRotating(true)} />
      </div>
      {endpoint.previous_secret_expires_at && (
        <Callout intent={Intent.WARNING} icon="time" compact>
          {t('detail.graceUntil', { date: formatDate(endpoint.previous_secret_expires_at) })}
        </Callout>
      )}
      <PasswordPrompt
        isOpen={asking}
        busy={busy}
        error={passwordError}
        onConfirm={(password) => void reveal(password)}
        onCancel={() => {
          setAsking(false);
          setPasswordError(null);
        }}
      />
      <Dialog
        isOpen={rotating}
        title={t('detail.rotateTitle')}
        icon="refresh"
        onClose={() => setRotating(false)}
      >
        <DialogBody>
          <p>{t('detail.rotateBody')}</p>
          <FormGroup label={t('detail.gracePeriod')} labelFor="webhook-grace">
            <HTMLSelect
              id="webhook-grace"
              value={grace}
              onChange={(event) => setGrace(Number(event.currentTarget.value))}
              options={GRACE_CHOICES.map((hours) => ({
                value: hours,
                label: hours === 0 ? t('detail.graceNone') : t('detail.graceHours', { count: hours }),
              }))}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('endpoints.cancel')} onClick={() => setRotating(false)} />
              <Button
                intent={Intent.WARNING}
                text={t('detail.rotate')}
                loading={busy}
                onClick={() => void rotate()}
              />
            </>
          }
        />
      </Dialog>
    </FormGroup>
  );
}

function TestPanel({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<WebhookTestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult(await sendTestEvent(endpoint.id));
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="studio-webhooks-test">
      <Button
        icon="send-message"
        text={t('detail.test')}
        loading={busy}
        disabled={!endpoint.is_active}
        onClick={() => void send()}
      />
      {result && (
        <Callout
          role="status"
          intent={result.success ? Intent.SUCCESS : Intent.DANGER}
          title={
            result.status_code !== null
              ? t('detail.testOk', { status: result.status_code, ms: result.duration_ms })
              : t('detail.testFailed')
          }
        >
          <DeliveryProblemText error={result.error} status={result.status_code} success={result.success} />
          {result.response_body && (
            <>
              <H5>{t('detail.receiverAnswer')}</H5>
              <pre className="studio-webhooks-pre">{result.response_body}</pre>
            </>
          )}
        </Callout>
      )}
    </div>
  );
}

function DeliveryLog({ endpoint, isAdmin }: { endpoint: WebhookEndpoint; isAdmin: boolean }) {
  const { t } = useTranslation('webhooks');
  const formatDate = useFormat().moment;
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<LogFilter>({});
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<number[]>([]);
  const [open, setOpen] = useState<WebhookLog | null>(null);
  const [busy, setBusy] = useState(false);
  /** After a retry: the newest entry then, until a newer one (the new attempt) is listed or time runs out. */
  const [awaiting, setAwaiting] = useState<{ after: number; until: number } | null>(null);
  const logs = useInfiniteQuery({
    queryKey: webhookKeys.logs(endpoint.id, filter),
    queryFn: ({ signal, pageParam }) =>
      listEndpointLogs(endpoint.id, { ...filter, after_id: pageParam }, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.has_more ? last.results.at(-1)?.id : undefined),
    // The worker sends a retried delivery within moments: read the log again until its attempt shows.
    refetchInterval: (query) => {
      if (!awaiting || Date.now() > awaiting.until) return false;
      const newest = query.state.data?.pages[0]?.results[0]?.id ?? 0;
      return newest > awaiting.after ? false : RETRY_POLL_MS;
    },
  });
  const rows = logs.data?.pages.flatMap((p) => p.results) ?? [];

  /** A failed retry shows the server's detail. */
  const retry = async (ids: number[]) => {
    setBusy(true);
    try {
      const queued = await retryDeliveries(ids);
      void showSuccess(t('logs.queued', { count: queued }));
      setPicked([]);
      setOpen(null);
      setAwaiting({ after: rows[0]?.id ?? 0, until: Date.now() + RETRY_WATCH_MS });
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label={t('logs.title')}>
      <H5>{t('logs.title')}</H5>
      <div className="studio-webhooks-filters">
        <HTMLSelect
          aria-label={t('logs.status')}
          value={filter.status ?? ''}
          onChange={(event) =>
            setFilter((f) => ({
              ...f,
              status: (event.currentTarget.value || undefined) as LogFilter['status'],
            }))
          }
          options={[
            { value: '', label: t('logs.allStatuses') },
            { value: 'succeeded', label: t('logs.succeeded') },
            { value: 'failed', label: t('logs.failed') },
          ]}
        />
        <HTMLSelect
          aria-label={t('logs.event')}
          value={filter.event ?? ''}
          onChange={(event) => setFilter((f) => ({ ...f, event: event.currentTarget.value || undefined }))}
          options={[
            { value: '', label: t('logs.allEvents') },
            ...WEBHOOK_EVENTS.map((e) => ({ value: e, label: e })),
            { value: 'webhook.test', label: 'webhook.test' },
          ]}
        />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setFilter((f) => ({ ...f, search: search.trim() || undefined }));
          }}
        >
          <InputGroup
            type="search"
            leftIcon="search"
            aria-label={t('logs.search')}
            placeholder={t('logs.search')}
            value={search}
            onValueChange={setSearch}
          />
        </form>
        <Button icon="refresh" text={t('logs.refresh')} onClick={() => void logs.refetch()} />
        {isAdmin && picked.length > 0 && (
          <Button
            icon="repeat"
            intent={Intent.PRIMARY}
            text={t('logs.retrySelected', { count: picked.length })}
            loading={busy}
            onClick={() => void retry(picked)}
          />
        )}
      </div>
      {logs.isPending && <Spinner size={24} />}
      {logs.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('logs.loadFailed')}
        </Callout>
      )}
      {logs.isSuccess && rows.length === 0 && <NonIdealState icon="history" title={t('logs.empty')} />}
      {rows.length > 0 && (
        <HTMLTable compact interactive aria-label={t('logs.title')}>
          <thead>
            <tr>
              {isAdmin && (
                <th>
                  <Checkbox
                    aria-label={t('logs.selectAll')}
                    checked={picked.length === rows.length}
                    onChange={() =>
                      setPicked((was) => (was.length === rows.length ? [] : rows.map((r) => r.id)))
                    }
                  />
                </th>
              )}
              <th>{t('logs.time')}</th>
              <th>{t('logs.event')}</th>
              <th>{t('logs.status')}</th>
              <th>{t('logs.attempt')}</th>
              <th>{t('logs.latency')}</th>
              <th>{t('logs.next')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((log) => (
              <tr
                key={log.id}
                className="studio-webhooks-row"
                tabIndex={0}
                onClick={() => setOpen(log)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    setOpen(log);
                  }
                }}
              >
                {isAdmin && (
                  <td
                    onClick={(event) => event.stopPropagation()}
                    onKeyDown={(event) => event.stopPropagation()}
                  >
                    <Checkbox
                      aria-label={t('logs.select', { id: log.id })}
                      checked={picked.includes(log.id)}
                      onChange={() =>
                        setPicked((was) =>
                          was.includes(log.id) ? was.filter((i) => i !== log.id) : [...was, log.id],
                        )
                      }
                    />
                  </td>
                )}
                <td>{formatDate(log.created_at)}</td>
                <td>
                  <code>{log.event}</code>
                </td>
                <td>
                  <Tag minimal intent={log.success ? Intent.SUCCESS : Intent.DANGER}>
                    {log.response_status ?? t('logs.noAnswer')}
                  </Tag>
                </td>
                <td>{log.attempt}</td>
                <td>{log.duration_ms === null ? '' : t('logs.ms', { ms: log.duration_ms })}</td>
                <td>
                  {log.next_retry_at ? formatDate(log.next_retry_at) : log.success ? '' : t('logs.final')}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {logs.hasNextPage && (
        <Button
          text={t('logs.more')}
          loading={logs.isFetchingNextPage}
          onClick={() => void logs.fetchNextPage()}
        />
      )}
      <LogDrawer
        log={open}
        isAdmin={isAdmin}
        busy={busy}
        onRetry={(id) => void retry([id])}
        onClose={() => setOpen(null)}
      />
    </section>
  );
}

function LogDrawer({
  log,
  isAdmin,
  busy,
  onRetry,
  onClose,
}: {
  log: WebhookLog | null;
  isAdmin: boolean;
  busy: boolean;
  onRetry: (id: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('webhooks');
  return (
    <Drawer
      isOpen={log !== null}
      onClose={onClose}
      title={log ? t('drawer.title', { attempt: log.attempt }) : ''}
      icon="exchange"
      size="560px"
    >
      {log && (
        <section className="studio-webhooks-drawer" aria-label={t('drawer.title', { attempt: log.attempt })}>
          <p>
            {t('drawer.message')}: <code>{log.message_id ?? ''}</code>
          </p>
          <H5>{t('drawer.request')}</H5>
          <p className="studio-webhooks-url">{`POST ${log.url}`}</p>
          {log.request_headers === null ? (
            <Callout intent={Intent.PRIMARY} icon="lock" data-testid="webhook-content-hidden">
              {t('drawer.contentHidden')}
            </Callout>
          ) : (
            <>
              <H5>{t('drawer.headers')}</H5>
              <pre className="studio-webhooks-pre">
                {Object.entries(log.request_headers)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join('\n')}
              </pre>
              <H5>{t('drawer.body')}</H5>
              <pre className="studio-webhooks-pre">
                {log.request_body ?? JSON.stringify(log.payload, null, 2)}
              </pre>
            </>
          )}
          <H5>{t('drawer.response')}</H5>
          <p>
            {t('drawer.status')}: <Tag minimal>{log.response_status ?? t('logs.noAnswer')}</Tag>
          </p>
          {!log.success && (
            <Callout intent={Intent.DANGER} title={t('drawer.error')}>
              <DeliveryProblemText error={log.error} status={log.response_status} success={log.success} />
            </Callout>
          )}
          {log.response_body && <pre className="studio-webhooks-pre">{log.response_body}</pre>}
          {isAdmin && (
            <div>
              <Button
                icon="repeat"
                intent={Intent.PRIMARY}
                loading={busy}
                text={log.success ? t('drawer.replay') : t('drawer.retry')}
                onClick={() => onRetry(log.id)}
              />
              <p className="studio-muted">{t('drawer.replayHelp')}</p>
            </div>
          )}
        </section>
      )}
    </Drawer>
  );
}
