import { Button, Callout, H4, HTMLSelect, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RISK_LEVELS, type RiskLevel } from '#contract/constants';
import {
  type BusinessEntity,
  ENTITY_STATUSES,
  type EntityCheckResult,
  type EntityStatus,
} from '#contract/entities';
import { entityChecks, entityOwnership, type ReviewCheck } from '../../../machines/entityReview';
import { entityChanges } from '../../../services/entities/entityChanges';
import { findEntity } from '../../../services/entities/sampleEntities';
import { useProfileLabels } from '../../components/profileLabels';
import { showSuccess } from '../../toaster';
import { useEntityDate } from '../entities/entityLabels';
import { LabeledField } from './LabeledField';

const RESULT_INTENTS: Record<EntityCheckResult, Intent> = {
  passed: Intent.SUCCESS,
  review: Intent.WARNING,
  failed: Intent.DANGER,
  pending: Intent.NONE,
};

export function CheckResultTag({ result }: { result: EntityCheckResult }) {
  const { t } = useTranslation('entities');
  return (
    <Tag minimal intent={RESULT_INTENTS[result]}>
      {t(`checks.result.${result}`)}
    </Tag>
  );
}

/** Status (default tab): the review status and risk, changed for this session only, and the checks. */
export function StatusTab({ entity }: { entity: BusinessEntity }) {
  const { t } = useTranslation('entities');
  const labels = useProfileLabels();
  const sample = findEntity(entity.id);
  const changed = sample && (sample.status !== entity.status || sample.risk !== entity.risk);
  const outcome = useMemo(() => entityOwnership(entity), [entity]);
  const checks = entityChecks(entity, outcome);

  const setStatus = (status: EntityStatus) => {
    entityChanges.change(entity.id, { status });
    void showSuccess(t('statusTab.changed'));
  };
  const setRisk = (risk: RiskLevel) => {
    entityChanges.change(entity.id, { risk });
    void showSuccess(t('statusTab.changed'));
  };

  return (
    <div className="studio-entity-tab">
      <section aria-labelledby="entity-review-title">
        <H4 id="entity-review-title">{t('statusTab.title')}</H4>
        <Callout icon="info-sign" className="studio-entity-sample">
          {t('statusTab.localNotice')}
        </Callout>
        <div className="studio-entity-review">
          <LabeledField label={t('statusTab.status')} labelFor="entity-status">
            <HTMLSelect
              id="entity-status"
              value={entity.status}
              onChange={(event) => setStatus(event.currentTarget.value as EntityStatus)}
              options={ENTITY_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
            />
          </LabeledField>
          <LabeledField label={t('statusTab.risk')} labelFor="entity-risk">
            <HTMLSelect
              id="entity-risk"
              value={entity.risk}
              onChange={(event) => setRisk(event.currentTarget.value as RiskLevel)}
              options={RISK_LEVELS.map((risk) => ({ value: risk, label: labels.risk(risk) }))}
            />
          </LabeledField>
          {changed && (
            <Button
              icon="reset"
              text={t('statusTab.reset')}
              onClick={() => {
                entityChanges.reset(entity.id);
                void showSuccess(t('statusTab.wasReset'));
              }}
            />
          )}
        </div>
        {changed && (
          <p className="studio-muted" role="status">
            {t('statusTab.changedNote', {
              status: t(`status.${sample.status}`),
              risk: labels.risk(sample.risk),
            })}
          </p>
        )}
      </section>
      <ChecksTable entity={entity} checks={checks} />
    </div>
  );
}

function ChecksTable({ entity, checks }: { entity: BusinessEntity; checks: ReviewCheck[] }) {
  const { t } = useTranslation('entities');
  const date = useEntityDate();
  const subject = (check: ReviewCheck) =>
    check.kind === 'sanctionsIndividual'
      ? (entity.individuals.find((person) => person.id === check.subject)?.name ?? '')
      : check.kind === 'uboThreshold'
        ? t('checks.ubos', { count: check.ubos ?? 0 })
        : entity.name;
  return (
    <section aria-labelledby="entity-checks-title">
      <H4 id="entity-checks-title">{t('checks.title')}</H4>
      <HTMLTable compact striped className="studio-table" aria-labelledby="entity-checks-title">
        <thead>
          <tr>
            <th scope="col">{t('checks.check')}</th>
            <th scope="col">{t('checks.subject')}</th>
            <th scope="col">{t('checks.resultLabel')}</th>
            <th scope="col">{t('checks.date')}</th>
            <th scope="col">{t('checks.source')}</th>
          </tr>
        </thead>
        <tbody>
          {checks.map((check) => (
            <tr key={`${check.kind}-${check.subject ?? ''}`}>
              <td>{t(`checks.kind.${check.kind}`)}</td>
              <td>{subject(check)}</td>
              <td>
                <CheckResultTag result={check.result} />
                {check.finding && <div className="studio-muted studio-entity-finding">{check.finding}</div>}
              </td>
              <td>{check.checked_at ? date(check.checked_at) : t('checks.notRun')}</td>
              <td>{check.source ?? t('checks.ownershipSource')}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  );
}
