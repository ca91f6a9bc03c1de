import { H4, HTMLTable } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BusinessEntity } from '#contract/entities';
import { useCountryName, useEntityDate } from '../entities/entityLabels';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="studio-field">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** EntityDetails: the registry details and the companies between the entity and its owners. */
export function DetailsTab({ entity }: { entity: BusinessEntity }) {
  const { t, i18n } = useTranslation('entities');
  const country = useCountryName();
  const date = useEntityDate();
  const { registry } = entity;
  const capital = new Intl.NumberFormat(i18n.language, {
    style: 'currency',
    currency: registry.capital.currency,
    maximumFractionDigits: 0,
  }).format(registry.capital.amount);
  return (
    <div className="studio-entity-tab">
      <section aria-labelledby="entity-details-title">
        <H4 id="entity-details-title">{t('details.title')}</H4>
        <dl className="studio-fields">
          <Field label={t('details.name')}>{entity.name}</Field>
          <Field label={t('details.legalForm')}>
            {`${t(`legalForm.${entity.legal_form}`)} (${entity.local_form})`}
          </Field>
          <Field label={t('details.registrationNumber')}>{entity.registration_number}</Field>
          <Field label={t('details.country')}>{country(entity.country)}</Field>
          <Field label={t('details.register')}>{registry.name}</Field>
          <Field label={t('details.incorporated')}>{date(registry.incorporated)}</Field>
          <Field label={t('details.address')}>{registry.address}</Field>
          <Field label={t('details.taxNumber')}>{registry.tax_number}</Field>
          <Field label={t('details.industry')}>{registry.industry}</Field>
          <Field label={t('details.capital')}>{capital}</Field>
          <Field label={t('details.website')}>{registry.website ?? t('details.none')}</Field>
          <Field label={t('details.created')}>{date(entity.created_at)}</Field>
        </dl>
      </section>
      <section aria-labelledby="entity-companies-title">
        <H4 id="entity-companies-title">{t('details.companies')}</H4>
        {entity.companies.length === 0 ? (
          <p className="studio-muted">{t('details.noCompanies')}</p>
        ) : (
          <HTMLTable compact striped className="studio-table" aria-labelledby="entity-companies-title">
            <thead>
              <tr>
                <th scope="col">{t('details.name')}</th>
                <th scope="col">{t('details.country')}</th>
                <th scope="col">{t('details.registrationNumber')}</th>
              </tr>
            </thead>
            <tbody>
              {entity.companies.map((company) => (
                <tr key={company.id}>
                  <td>{company.name}</td>
                  <td>{country(company.country)}</td>
                  <td>{company.registration_number}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </section>
    </div>
  );
}
