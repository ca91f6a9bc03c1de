import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H4,
  Intent,
  NumericInput,
  Spinner,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { evidenceRetentionBodySchema, RETENTION_DAYS } from '#contract/evidence';
import { evidenceKeys, getRetention, setRetention } from '../../../services/api/evidence';
import { isApiError } from '../../../services/api/http';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';

export function EvidenceRetentionTabTitle() {
  const { t } = useTranslation('calls');
  return <>{t('evidence.retention.tab')}</>;
}

/**
 * Evidence (issue 29): how many days the company keeps a call's recording and screenshots. Admins change it;
 * the bounds are the contract's, the server checks them again.
 */
export function EvidenceRetentionTab() {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const queryClient = useQueryClient();
  const key = [...evidenceKeys.retention, account?.server ?? '', account?.company_id ?? 0];
  const retention = useQuery({ queryKey: key, queryFn: ({ signal }) => getRetention({ signal }) });
  const [days, setDays] = useState<number | null>(null);
  const save = useMutation({
    mutationFn: (value: number) => setRetention(value),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      setDays(null);
      void showSuccess(t('evidence.retention.saved'));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const shown = days ?? retention.data?.evidence_retention_days ?? RETENTION_DAYS.default;
  const valid = evidenceRetentionBodySchema.safeParse({ evidence_retention_days: shown }).success;
  return (
    <Card className="studio-settings-card">
      <H4>{t('evidence.retention.title')}</H4>
      <p>{t('evidence.retention.body')}</p>
      {retention.isPending && <Spinner size={24} aria-label={t('evidence.retention.title')} />}
      {retention.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('evidence.retention.loadFailed')}
        </Callout>
      )}
      {retention.data && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (valid) save.mutate(shown);
          }}
        >
          <FormGroup
            label={t('evidence.retention.days')}
            labelFor="evidence-retention-days"
            helperText={t('evidence.retention.bounds', {
              min: RETENTION_DAYS.min,
              max: RETENTION_DAYS.max,
              years: (shown / 365.25).toFixed(1),
            })}
            intent={valid ? Intent.NONE : Intent.DANGER}
          >
            {/* No stepper buttons: they point (aria-controls) at the id Blueprint makes up, which the label's
                id replaces (axe aria-valid-attr-value, critical); the arrow keys still step. */}
            <NumericInput
              id="evidence-retention-days"
              buttonPosition="none"
              value={Number.isFinite(shown) ? shown : ''}
              min={RETENTION_DAYS.min}
              max={RETENTION_DAYS.max}
              stepSize={1}
              majorStepSize={365}
              minorStepSize={null}
              allowNumericCharactersOnly
              clampValueOnBlur={false}
              disabled={!isAdmin || save.isPending}
              intent={valid ? Intent.NONE : Intent.DANGER}
              onValueChange={(value) => setDays(value)}
            />
          </FormGroup>
          {isAdmin ? (
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text={t('evidence.retention.save')}
              loading={save.isPending}
              disabled={!valid || days === null}
            />
          ) : (
            <p className={Classes.TEXT_MUTED}>{t('evidence.retention.adminOnly')}</p>
          )}
        </form>
      )}
    </Card>
  );
}
