import { FormGroup, HTMLSelect, Intent, NumericInput } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  CALL_ROUTINGS,
  type CallRouting,
  type CallRoutingBody,
  callRoutingBodySchema,
  OFFER_SECONDS,
} from '#contract/callRouting';
import { callRoutingKeys, getCallRouting, setCallRouting } from '../../../services/api/callRouting';
import { CompanySettingCard, useCompanySetting } from './CompanySettingCard';

export function CallRoutingTabTitle() {
  const { t } = useTranslation('calls');
  return <>{t('routing.tab')}</>;
}

/**
 * Call routing (issue 29): ring every free agent, or offer each waiting call to one agent at a time for some
 * seconds. Admins change it; the bounds are the contract's, the server checks them again.
 */
export function CallRoutingTab() {
  const { t } = useTranslation('calls');
  const setting = useCompanySetting({
    keys: callRoutingKeys.settings,
    read: getCallRouting,
    write: (body: CallRoutingBody) => setCallRouting(body),
    texts: 'routing',
  });
  const { settings, draft, setDraft, save } = setting;
  const shown = {
    call_routing: draft.call_routing ?? settings.data?.call_routing ?? 'ring_all',
    offer_seconds: draft.offer_seconds ?? settings.data?.offer_seconds ?? OFFER_SECONDS.default,
  };
  const valid = callRoutingBodySchema.safeParse(shown).success;
  const locked = !setting.isAdmin || save.isPending;
  return (
    <CompanySettingCard
      texts="routing"
      settings={settings}
      isAdmin={setting.isAdmin}
      saving={save.isPending}
      canSave={valid && setting.changed}
      onSave={() => save.mutate(shown)}
    >
      <FormGroup label={t('routing.mode')} labelFor="call-routing-mode">
        <HTMLSelect
          id="call-routing-mode"
          value={shown.call_routing}
          disabled={locked}
          onChange={(event) => setDraft({ ...draft, call_routing: event.target.value as CallRouting })}
          options={CALL_ROUTINGS.map((routing) => ({ value: routing, label: t(`routing.${routing}`) }))}
        />
      </FormGroup>
      <FormGroup
        label={t('routing.seconds')}
        labelFor="call-routing-seconds"
        helperText={t('routing.bounds', { min: OFFER_SECONDS.min, max: OFFER_SECONDS.max })}
        intent={valid ? Intent.NONE : Intent.DANGER}
      >
        {/* No stepper buttons (axe aria-valid-attr-value, as the evidence retention's input). */}
        <NumericInput
          id="call-routing-seconds"
          buttonPosition="none"
          value={Number.isFinite(shown.offer_seconds) ? shown.offer_seconds : ''}
          min={OFFER_SECONDS.min}
          max={OFFER_SECONDS.max}
          stepSize={1}
          majorStepSize={5}
          minorStepSize={null}
          allowNumericCharactersOnly
          clampValueOnBlur={false}
          disabled={locked || shown.call_routing !== 'one_at_a_time'}
          intent={valid ? Intent.NONE : Intent.DANGER}
          onValueChange={(value) => setDraft({ ...draft, offer_seconds: value })}
        />
      </FormGroup>
    </CompanySettingCard>
  );
}
