import {
  Button,
  Callout,
  Card,
  H4,
  HTMLTable,
  Intent,
  NonIdealState,
  Spinner,
  Switch,
  Tag,
} from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookEndpoint, WebhookEventType } from '#contract/webhooks';
import {
  deleteEndpoint,
  getWebhookToken,
  listEndpoints,
  listEventToggles,
  regenerateWebhookToken,
  setEventEnabled,
  updateEndpoint,
  webhookKeys,
} from '../../../services/api/webhooks';
import { useActiveAccount } from '../../app/useAccounts';
import { Alert } from '../../components/Dialog';
import { useErrorText } from '../../components/useErrorText';
import { useFormat } from '../../format';
import { showError, showSuccess } from '../../toaster';
import { EndpointDetail } from './EndpointDetail';
import { EndpointDialog } from './EndpointDialog';

/** The Webhooks tab: endpoints with their health, the selected one's secret, test and log; events; token. */
export function WebhooksTab() {
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const [selected, setSelected] = useState<number | null>(null);
  const endpoints = useQuery({
    queryKey: webhookKeys.endpoints(),
    queryFn: ({ signal }) => listEndpoints({ signal }),
  });
  const current = endpoints.data?.find((e) => e.id === selected) ?? null;
  return (
    <div className="studio-webhooks">
      <EndpointsCard
        query={endpoints}
        isAdmin={isAdmin}
        selected={selected}
        onSelect={(id) => setSelected((was) => (was === id ? null : id))}
      />
      {current && <EndpointDetail endpoint={current} isAdmin={isAdmin} onClose={() => setSelected(null)} />}
      <EventsCard isAdmin={isAdmin} />
      {isAdmin && <TokenCard />}
    </div>
  );
}

function EndpointsCard({
  query,
  isAdmin,
  selected,
  onSelect,
}: {
  query: ReturnType<typeof useQuery<WebhookEndpoint[]>>;
  isAdmin: boolean;
  selected: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation('webhooks');
  const formatDate = useFormat().dateTime;
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints() });

  const toggle = async (endpoint: WebhookEndpoint) => {
    setBusy(endpoint.id);
    try {
      await updateEndpoint(endpoint.id, { is_active: !endpoint.is_active });
      void showSuccess(endpoint.is_active ? t('endpoints.disabledDone') : t('endpoints.enabled'));
      await refresh();
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(null);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    const target = deleting;
    setBusy(target.id);
    try {
      await deleteEndpoint(target.id);
      setDeleting(null);
      void showSuccess(t('endpoints.deleted'));
      await refresh();
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card>
      <div className="studio-webhooks-head">
        <div>
          <H4>{t('endpoints.title')}</H4>
          <p className="studio-muted">{t('endpoints.intro')}</p>
        </div>
        {isAdmin && (
          <Button
            icon="add"
            intent={Intent.PRIMARY}
            text={t('endpoints.add')}
            onClick={() => setEditing('new')}
          />
        )}
      </div>
      {query.isPending && <Spinner size={24} />}
      {query.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('endpoints.loadFailed')}{' '}
          <Button size="small" text={t('endpoints.retry')} onClick={() => void query.refetch()} />
        </Callout>
      )}
      {query.data?.length === 0 && (
        <NonIdealState icon="link" title={t('endpoints.empty')} description={t('endpoints.emptyHint')} />
      )}
      {query.data && query.data.length > 0 && (
        // Fixed columns: an endpoint's figures refresh live, and columns sized by their content moved the row's
        // buttons under the pointer when they did (a click meant for Delete landed beside it).
        <HTMLTable compact striped aria-label={t('endpoints.title')} className="studio-webhooks-endpoints">
          <colgroup>
            <col />
            <col className="studio-webhooks-col-events" />
            <col className="studio-webhooks-col-status" />
            <col className="studio-webhooks-col-delivery" />
            <col className="studio-webhooks-col-rate" />
            <col className="studio-webhooks-col-actions" />
          </colgroup>
          <thead>
            <tr>
              <th>{t('endpoints.url')}</th>
              <th>{t('endpoints.events')}</th>
              <th>{t('endpoints.status')}</th>
              <th>{t('endpoints.lastDelivery')}</th>
              <th>{t('endpoints.successRate')}</th>
              <th>{t('endpoints.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((e) => (
              <tr key={e.id} aria-selected={selected === e.id}>
                <td>
                  <div className="studio-webhooks-url">{e.url}</div>
                  {e.description && <div className="studio-muted">{e.description}</div>}
                </td>
                <td>
                  {e.enabled_events.length === 0
                    ? t('endpoints.allEvents')
                    : t('endpoints.eventCount', { count: e.enabled_events.length })}
                </td>
                <td>
                  <Tag minimal intent={e.is_active ? Intent.SUCCESS : Intent.DANGER}>
                    {e.is_active ? t('endpoints.active') : t('endpoints.disabled')}
                  </Tag>
                  {e.disabled_reason && (
                    <div className="studio-muted" title={e.disabled_reason}>
                      {t('endpoints.disabledByServer')}: {e.disabled_reason}
                    </div>
                  )}
                  {e.health.pending > 0 && (
                    <div className="studio-muted">{t('endpoints.pending', { count: e.health.pending })}</div>
                  )}
                </td>
                <td>
                  {e.health.last_delivery_at ? formatDate(e.health.last_delivery_at) : t('endpoints.never')}
                  {e.health.last_status !== null && <Tag minimal>{e.health.last_status}</Tag>}
                </td>
                <td>
                  {e.health.success_rate_24h === null
                    ? t('endpoints.noAttempts')
                    : `${Math.round(e.health.success_rate_24h * 100)} % (${e.health.attempts_24h})`}
                </td>
                <td>
                  <div className="studio-webhooks-actions">
                    <Button
                      size="small"
                      icon="eye-open"
                      text={t('endpoints.details')}
                      active={selected === e.id}
                      onClick={() => onSelect(e.id)}
                    />
                    {isAdmin && (
                      <>
                        <Button
                          size="small"
                          icon="edit"
                          text={t('endpoints.edit')}
                          onClick={() => setEditing(e)}
                        />
                        <Button
                          size="small"
                          icon={e.is_active ? 'disable' : 'play'}
                          text={e.is_active ? t('endpoints.disable') : t('endpoints.enable')}
                          loading={busy === e.id}
                          onClick={() => void toggle(e)}
                        />
                        <Button
                          size="small"
                          icon="trash"
                          intent={Intent.DANGER}
                          text={t('endpoints.delete')}
                          onClick={() => setDeleting(e)}
                        />
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && (
        <EndpointDialog
          endpoint={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      <Alert
        isOpen={deleting !== null}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText={t('endpoints.delete')}
        cancelButtonText={t('endpoints.cancel')}
        loading={deleting !== null && busy === deleting.id}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <H4>{t('endpoints.deleteTitle')}</H4>
        <p>{t('endpoints.deleteBody', { url: deleting?.url ?? '' })}</p>
      </Alert>
    </Card>
  );
}

function EventsCard({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation('webhooks');
  const formatDate = useFormat().dateTime;
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const events = useQuery({
    queryKey: webhookKeys.events(),
    queryFn: ({ signal }) => listEventToggles({ signal }),
  });
  const [busy, setBusy] = useState<string | null>(null);
  const change = async (event: WebhookEventType, enabled: boolean) => {
    setBusy(event);
    try {
      await setEventEnabled(event, enabled);
      await queryClient.invalidateQueries({ queryKey: webhookKeys.events() });
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card>
      <H4>{t('events.title')}</H4>
      <p className="studio-muted">{t('events.intro')}</p>
      {events.isPending && <Spinner size={24} />}
      {events.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('events.loadFailed')}
        </Callout>
      )}
      {events.data && (
        <HTMLTable compact aria-label={t('events.title')}>
          <thead>
            <tr>
              <th>{t('endpoints.events')}</th>
              <th>{t('events.lastTriggered')}</th>
            </tr>
          </thead>
          <tbody>
            {events.data.map((e) => (
              <tr key={e.event}>
                <td>
                  <Switch
                    checked={e.enabled}
                    disabled={!isAdmin || busy === e.event}
                    label={`${t(`events.names.${e.event}`)} (${e.event})`}
                    aria-label={t('events.toggle', { event: e.event })}
                    onChange={() => void change(e.event, !e.enabled)}
                  />
                </td>
                <td>{e.last_triggered_at ? formatDate(e.last_triggered_at) : t('events.never')}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

function TokenCard() {
  const { t } = useTranslation('webhooks');
  const errorText = useErrorText();
  const [token, setToken] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string>, done?: string) => {
    setBusy(true);
    try {
      setToken(await action());
      if (done) void showSuccess(done);
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <Card>
      <H4>{t('token.title')}</H4>
      <p className="studio-muted">{t('token.intro')}</p>
      <div className="studio-webhooks-secret">
        <code data-testid="webhook-token">{token ?? '••••••••••••••••••••••••'}</code>
        {token === null && (
          <Button
            icon="eye-open"
            text={t('token.show')}
            loading={busy}
            onClick={() => void run(getWebhookToken)}
          />
        )}
        <Button icon="refresh" text={t('token.regenerate')} onClick={() => setConfirming(true)} />
      </div>
      <Alert
        isOpen={confirming}
        intent={Intent.WARNING}
        icon="refresh"
        confirmButtonText={t('token.regenerate')}
        cancelButtonText={t('endpoints.cancel')}
        loading={busy}
        onConfirm={() => void run(regenerateWebhookToken, t('token.regenerated'))}
        onCancel={() => setConfirming(false)}
      >
        <H4>{t('token.regenerateTitle')}</H4>
        <p>{t('token.regenerateBody')}</p>
      </Alert>
    </Card>
  );
}
