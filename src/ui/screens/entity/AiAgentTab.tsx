import { Callout, H4, Intent, Tag } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BusinessEntity } from '#contract/entities';
import {
  type DriverSeverity,
  entityOwnership,
  type RiskDriver,
  riskDrivers,
} from '../../../machines/entityReview';
import { useProfileLabels } from '../../components/profileLabels';
import { useCountryName, useEntityDate, usePercent } from '../entities/entityLabels';

const SEVERITY_INTENTS: Record<DriverSeverity, Intent> = {
  high: Intent.DANGER,
  medium: Intent.WARNING,
  low: Intent.PRIMARY,
  info: Intent.NONE,
};

/** AiAgent: the entity's risk drivers, drawn up by fixed rules from its data (and it says so). */
export function AiAgentTab({ entity }: { entity: BusinessEntity }) {
  const { t } = useTranslation('entities');
  const labels = useProfileLabels();
  const drivers = useMemo(() => riskDrivers(entity, entityOwnership(entity)), [entity]);
  const text = useDriverText();
  return (
    <section className="studio-entity-tab" aria-labelledby="entity-ai-title">
      <H4 id="entity-ai-title">{t('ai.title')}</H4>
      <Callout icon="predictive-analysis" className="studio-entity-sample">
        {t('ai.what')}
      </Callout>
      <p>
        {t('ai.overview', {
          name: entity.name,
          status: t(`status.${entity.status}`),
          risk: labels.risk(entity.risk),
          aml: t(`aml.${entity.aml_status}`),
        })}
      </p>
      <ol className="studio-entity-drivers" aria-label={t('ai.drivers')}>
        {drivers.map((driver) => (
          <li key={driver.key}>
            <Tag minimal intent={SEVERITY_INTENTS[driver.severity]} className="studio-entity-severity">
              {t(`ai.severity.${driver.severity}`)}
            </Tag>
            <span>{text(driver)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function useDriverText(): (driver: RiskDriver) => string {
  const { t, i18n } = useTranslation('entities');
  const country = useCountryName();
  const date = useEntityDate();
  const percent = usePercent();
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
  return (driver) => {
    switch (driver.key) {
      case 'ownershipError':
        return t('ai.driver.ownershipError', { parties: driver.parties });
      case 'sanctionsHit':
      case 'sanctionsReview':
        return t(`ai.driver.${driver.key}`, { name: driver.name, finding: driver.finding });
      case 'entitySanctions':
      case 'adverseMedia':
      case 'registry':
        return t(`ai.driver.${driver.key}`, { finding: driver.finding });
      case 'pep':
        return driver.names ? t('ai.driver.pepNamed', { names: driver.names }) : t('ai.driver.pep');
      case 'offshoreHolding':
        return t('ai.driver.offshoreHolding', { companies: driver.companies });
      case 'layers':
        return t('ai.driver.layers', { count: driver.count, companies: driver.companies });
      case 'noUbo':
        return t('ai.driver.noUbo', { threshold: percent(driver.threshold) });
      case 'addressOld':
        return t('ai.driver.addressOld', { issued: date(driver.issued), checked: date(driver.checked) });
      case 'foreignCountries':
        return t('ai.driver.foreignCountries', { countries: list.format(driver.countries.map(country)) });
      case 'pending':
        return t('ai.driver.pending', { count: driver.count });
      case 'ubos':
        return t('ai.driver.ubos', {
          threshold: percent(driver.threshold),
          owners: list.format(driver.owners.map((owner) => `${owner.name} (${percent(owner.effective)})`)),
        });
      case 'unlisted':
        return t('ai.driver.unlisted', { share: percent(driver.share) });
      default:
        return t(`ai.driver.${driver.key}`);
    }
  };
}
