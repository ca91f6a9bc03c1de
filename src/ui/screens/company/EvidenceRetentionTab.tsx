import { FormGroup, Intent, NumericInput } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { type EvidenceRetentionBody, evidenceRetentionBodySchema, RETENTION_DAYS } from '#contract/evidence';
import { evidenceKeys, getRetention, setRetention } from '../../../services/api/evidence';
import { CompanySettingCard, useCompanySetting } from './CompanySettingCard';

export function EvidenceRetentionTabTitle() {
  const { t } = useTranslation('calls');
  return <>{t('evidence.retention.tab')}</>;
}

/**
 * Evidence: how many days the company keeps a call's recording and screenshots. Admins change it;
 * the bounds are the contract's, the server checks them again.
 */
export function EvidenceRetentionTab() {
  const { t } = useTranslation('calls');
  const setting = useCompanySetting({
    keys: evidenceKeys.retention,
    read: getRetention,
    write: (body: EvidenceRetentionBody) => setRetention(body.evidence_retention_days),
    texts: 'evidence.retention',
  });
  const { settings, draft, save } = setting;
  const shown =
    draft.evidence_retention_days ?? settings.data?.evidence_retention_days ?? RETENTION_DAYS.default;
  const valid = evidenceRetentionBodySchema.safeParse({ evidence_retention_days: shown }).success;
  return (
    <CompanySettingCard
      texts="evidence.retention"
      settings={settings}
      isAdmin={setting.isAdmin}
      saving={save.isPending}
      canSave={valid && setting.changed}
      onSave={() => save.mutate({ evidence_retention_days: shown })}
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
          disabled={!setting.isAdmin || save.isPending}
          intent={valid ? Intent.NONE : Intent.DANGER}
          onValueChange={(value) => setting.setDraft({ evidence_retention_days: value })}
        />
      </FormGroup>
    </CompanySettingCard>
  );
}
