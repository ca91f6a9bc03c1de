import { FormGroup, HTMLSelect, Intent, NumericInput } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import {
  CALL_ROUTINGS,
  type CallRouting,
  type CallRoutingBody,
  callRoutingBodySchema,
  JOIN_LINK_RETRIES,
  OFFER_SECONDS,
} from '#contract/callRouting';
import { callRoutingKeys, getCallRouting, setCallRouting } from '../../../services/api/callRouting';
import { CallNetworkCard } from './CallNetworkCard';
import { CallWatchCard } from './CallWatchCard';
import { CompanySettingCard, useCompanySetting } from './CompanySettingCard';

export function CallRoutingTabTitle() {
  const { t } = useTranslation('calls');
  return <>{t('routing.tab')}</>;
}

/** The company's call settings: how calls reach agents, and how often a join link may start one. */
export function CallRoutingTab() {
  return (
    <>
      <RoutingCard />
      <JoinLinksCard />
      <CallNetworkCard />
      <CallWatchCard />
    </>
  );
}

/**
 * Call routing: ring every free agent, or offer each waiting call to one agent at a time for some
 * seconds. Admins change it; the bounds are the contract's, the server checks them again.
 */
function RoutingCard() {
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

/**
 * How many new calls one join link may start after its calls ended by a technical abort (any other ending uses
 * the link up). Saved with the routing as it stands, since both are one company setting on the server.
 */
function JoinLinksCard() {
  const { t } = useTranslation('calls');
  const setting = useCompanySetting({
    keys: callRoutingKeys.settings,
    read: getCallRouting,
    write: (body: CallRoutingBody) => setCallRouting(body),
    texts: 'joinLinks',
  });
  const { settings, draft, setDraft, save } = setting;
  const current = settings.data;
  const shown = draft.join_link_retries ?? current?.join_link_retries ?? JOIN_LINK_RETRIES.default;
  const body = current && {
    call_routing: current.call_routing,
    offer_seconds: current.offer_seconds,
    join_link_retries: shown,
  };
  const valid = body !== undefined && callRoutingBodySchema.safeParse(body).success;
  return (
    <CompanySettingCard
      texts="joinLinks"
      settings={settings}
      isAdmin={setting.isAdmin}
      saving={save.isPending}
      canSave={valid && setting.changed}
      onSave={() => body && save.mutate(body)}
    >
      <FormGroup
        label={t('joinLinks.retries')}
        labelFor="join-link-retries"
        helperText={t('joinLinks.bounds', { min: JOIN_LINK_RETRIES.min, max: JOIN_LINK_RETRIES.max })}
        intent={valid ? Intent.NONE : Intent.DANGER}
      >
        {/* No stepper buttons (axe aria-valid-attr-value, as the evidence retention's input). */}
        <NumericInput
          id="join-link-retries"
          buttonPosition="none"
          value={Number.isFinite(shown) ? shown : ''}
          min={JOIN_LINK_RETRIES.min}
          max={JOIN_LINK_RETRIES.max}
          stepSize={1}
          minorStepSize={null}
          allowNumericCharactersOnly
          clampValueOnBlur={false}
          disabled={!setting.isAdmin || save.isPending}
          intent={valid ? Intent.NONE : Intent.DANGER}
          onValueChange={(value) => setDraft({ ...draft, join_link_retries: value })}
        />
      </FormGroup>
    </CompanySettingCard>
  );
}
