import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H4,
  HTMLSelect,
  Intent,
  NumericInput,
  Spinner,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CALL_ROUTINGS,
  type CallRouting,
  type CallRoutingBody,
  callRoutingBodySchema,
  OFFER_SECONDS,
} from '#contract/callRouting';
import { callRoutingKeys, getCallRouting, setCallRouting } from '../../../services/api/callRouting';
import { isApiError } from '../../../services/api/http';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';

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
  const { t: tc } = useTranslation();
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const queryClient = useQueryClient();
  const key = [...callRoutingKeys.settings, account?.server ?? '', account?.company_id ?? 0];
  const settings = useQuery({ queryKey: key, queryFn: ({ signal }) => getCallRouting({ signal }) });
  const [draft, setDraft] = useState<Partial<CallRoutingBody>>({});
  const save = useMutation({
    mutationFn: (body: CallRoutingBody) => setCallRouting(body),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      setDraft({});
      void showSuccess(t('routing.saved'));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const shown = {
    call_routing: draft.call_routing ?? settings.data?.call_routing ?? 'ring_all',
    offer_seconds: draft.offer_seconds ?? settings.data?.offer_seconds ?? OFFER_SECONDS.default,
  };
  const valid = callRoutingBodySchema.safeParse(shown).success;
  const changed = draft.call_routing !== undefined || draft.offer_seconds !== undefined;
  const locked = !isAdmin || save.isPending;
  return (
    <Card className="studio-settings-card">
      <H4>{t('routing.title')}</H4>
      <p>{t('routing.body')}</p>
      {settings.isPending && <Spinner size={24} aria-label={t('routing.title')} />}
      {settings.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('routing.loadFailed')}
        </Callout>
      )}
      {settings.data && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (valid) save.mutate(shown);
          }}
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
          {isAdmin ? (
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text={t('routing.save')}
              loading={save.isPending}
              disabled={!valid || !changed}
            />
          ) : (
            <p className={Classes.TEXT_MUTED}>{t('routing.adminOnly')}</p>
          )}
        </form>
      )}
    </Card>
  );
}
