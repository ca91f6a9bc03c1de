import { Switch } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { CallWatchSettings } from '#contract/callWatch';
import { callWatchKeys, getCallWatchSettings, setCallWatchSettings } from '../../../services/api/callWatch';
import { CompanySettingCard, useCompanySetting } from './CompanySettingCard';

/**
 * Supervisors watching calls: whether the customer's page says that a supervisor may join (on by default;
 * docs/decisions/0208-supervisors-watch-calls.md).
 */
export function CallWatchCard() {
  const { t } = useTranslation('calls');
  const setting = useCompanySetting({
    keys: callWatchKeys.settings,
    read: getCallWatchSettings,
    write: (body: CallWatchSettings) => setCallWatchSettings(body),
    texts: 'watchSetting',
  });
  const { settings, draft, setDraft, save } = setting;
  const notice = draft.customer_notice ?? settings.data?.customer_notice ?? true;
  return (
    <CompanySettingCard
      texts="watchSetting"
      settings={settings}
      isAdmin={setting.isAdmin}
      saving={save.isPending}
      canSave={setting.changed}
      onSave={() => save.mutate({ customer_notice: notice })}
    >
      <Switch
        id="call-watch-notice"
        label={t('watchSetting.notice')}
        checked={notice}
        disabled={!setting.isAdmin || save.isPending}
        onChange={(event) => setDraft({ customer_notice: event.currentTarget.checked })}
      />
    </CompanySettingCard>
  );
}
