import { Callout, Intent, Switch } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { CallNetworkBody } from '#contract/callNetwork';
import { callNetworkKeys, getCallNetwork, setCallNetwork } from '../../../services/api/callNetwork';
import { CompanySettingCard, useCompanySetting } from './CompanySettingCard';

/**
 * Relay-only calls: every call of the company connects through the TURN server, so neither side learns the
 * other's address. Shown on when the server makes every call relay-only; refused (off) without a TURN server.
 */
export function CallNetworkCard() {
  const { t } = useTranslation('calls');
  const setting = useCompanySetting({
    keys: callNetworkKeys.settings,
    read: getCallNetwork,
    write: (body: CallNetworkBody) => setCallNetwork(body),
    texts: 'network',
  });
  const { settings, draft, setDraft, save } = setting;
  const current = settings.data;
  const relayOnly = draft.relay_only ?? current?.relay_only ?? false;
  const byServer = current?.relay_only_by_server ?? false;
  const noTurn = current !== undefined && !current.turn_configured;
  return (
    <CompanySettingCard
      texts="network"
      settings={settings}
      isAdmin={setting.isAdmin}
      saving={save.isPending}
      canSave={setting.changed && !(relayOnly && noTurn)}
      onSave={() => save.mutate({ relay_only: relayOnly })}
    >
      <Switch
        id="relay-only-calls"
        label={t('network.relayOnly')}
        checked={relayOnly || byServer}
        disabled={!setting.isAdmin || save.isPending || byServer || (noTurn && !relayOnly)}
        onChange={(event) => setDraft({ relay_only: event.currentTarget.checked })}
      />
      {byServer && (
        <Callout intent={Intent.PRIMARY} icon="info-sign">
          {t('network.byServer')}
        </Callout>
      )}
      {noTurn && (
        <Callout intent={Intent.WARNING} icon="warning-sign">
          {t('network.noTurn')}
        </Callout>
      )}
    </CompanySettingCard>
  );
}
