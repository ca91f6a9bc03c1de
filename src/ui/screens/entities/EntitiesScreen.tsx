import { Button, Callout, H2, HTMLSelect, HTMLTable, InputGroup, NonIdealState } from '@blueprintjs/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { RISK_LEVELS } from '#contract/constants';
import { type BusinessEntity, ENTITY_STATUSES, LEGAL_FORMS } from '#contract/entities';
import { type EntityListView, filterEntities, readEntityView } from '../../../machines/entityList';
import { useAddressQuery } from '../../app/useAddressQuery';
import { usePageTitle } from '../../app/usePageTitle';
import { RiskTag, useProfileLabels } from '../../components/profileLabels';
import { AmlStatusTag, EntityStatusTag, useCountryName, useEntities } from './entityLabels';
import './entities.css';

function useEntityView(): [EntityListView, (change: Partial<EntityListView>) => void] {
  const [query, changeQuery] = useAddressQuery();
  const view = useMemo(() => readEntityView(query), [query]);
  const update = useCallback(
    (change: Partial<EntityListView>) =>
      changeQuery((current) => {
        const next = { ...readEntityView(current), ...change };
        const params = new URLSearchParams();
        for (const [key, value] of Object.entries(next)) if (value) params.set(key, value);
        return params;
      }),
    [changeQuery],
  );
  return [view, update];
}

/** /entities (docs/product/README.md, docs/product/screens.md): the sample business entities, searched and filtered in the browser. */
export function EntitiesScreen() {
  const { t } = useTranslation('entities');
  const { t: ts } = useTranslation('screens');
  const title = ts('entities.title');
  usePageTitle(title);
  const entities = useEntities();
  const [view, update] = useEntityView();
  const rows = filterEntities(entities, view);
  const filtered = view.search || view.status || view.risk || view.country || view.type;

  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <Callout icon="info-sign" className="studio-entity-sample">
        {t('sampleNotice')}
      </Callout>
      <Filters view={view} update={update} entities={entities} />
      {rows.length === 0 ? (
        <NonIdealState
          icon="search"
          title={t('list.empty')}
          description={t('list.emptyBody')}
          action={
            filtered ? (
              <Button
                icon="cross"
                text={t('list.clear')}
                onClick={() => update({ search: '', status: '', risk: '', country: '', type: '' })}
              />
            ) : undefined
          }
        />
      ) : (
        <EntityTable rows={rows} />
      )}
      <p className="studio-muted" role="status">
        {t('list.count', { count: rows.length, total: entities.length })}
      </p>
    </section>
  );
}

function Filters({
  view,
  update,
  entities,
}: {
  view: EntityListView;
  update: (change: Partial<EntityListView>) => void;
  entities: readonly BusinessEntity[];
}) {
  const { t } = useTranslation('entities');
  const labels = useProfileLabels();
  const country = useCountryName();
  const countries = [...new Set(entities.map((entity) => entity.country))]
    .map((code) => ({ value: code, label: country(code) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const filtered = view.search || view.status || view.risk || view.country || view.type;
  return (
    <div className="studio-filters">
      <InputGroup
        leftIcon="search"
        type="search"
        placeholder={t('list.search')}
        aria-label={t('list.searchLabel')}
        value={view.search}
        onValueChange={(search) => update({ search })}
        className="studio-filter-search"
      />
      <HTMLSelect
        aria-label={t('list.status')}
        value={view.status}
        onChange={(event) => update({ status: event.currentTarget.value as EntityListView['status'] })}
        options={[
          { value: '', label: t('list.allStatuses') },
          ...ENTITY_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('list.risk')}
        value={view.risk}
        onChange={(event) => update({ risk: event.currentTarget.value as EntityListView['risk'] })}
        options={[
          { value: '', label: t('list.allRisks') },
          ...RISK_LEVELS.map((risk) => ({ value: risk, label: labels.risk(risk) })),
        ]}
      />
      <HTMLSelect
        aria-label={t('list.country')}
        value={view.country}
        onChange={(event) => update({ country: event.currentTarget.value })}
        options={[{ value: '', label: t('list.allCountries') }, ...countries]}
      />
      <HTMLSelect
        aria-label={t('list.type')}
        value={view.type}
        onChange={(event) => update({ type: event.currentTarget.value as EntityListView['type'] })}
        options={[
          { value: '', label: t('list.allTypes') },
          ...LEGAL_FORMS.map((form) => ({ value: form, label: t(`legalForm.${form}`) })),
        ]}
      />
      {filtered && (
        <Button
          variant="minimal"
          icon="cross"
          text={t('list.clear')}
          onClick={() => update({ search: '', status: '', risk: '', country: '', type: '' })}
        />
      )}
    </div>
  );
}

function EntityTable({ rows }: { rows: BusinessEntity[] }) {
  const { t } = useTranslation('entities');
  const country = useCountryName();
  return (
    <HTMLTable striped interactive compact className="studio-table" aria-label={t('list.table')}>
      <thead>
        <tr>
          <th scope="col">{t('columns.name')}</th>
          <th scope="col">{t('columns.type')}</th>
          <th scope="col">{t('columns.registration')}</th>
          <th scope="col">{t('columns.country')}</th>
          <th scope="col">{t('columns.status')}</th>
          <th scope="col">{t('columns.risk')}</th>
          <th scope="col">{t('columns.aml')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((entity) => (
          <tr key={entity.id}>
            <td>
              <Link href={`~/entity/${entity.id}`}>{entity.name}</Link>
            </td>
            <td>
              {t(`legalForm.${entity.legal_form}`)}{' '}
              <span className="studio-muted">{`(${entity.local_form})`}</span>
            </td>
            <td>{entity.registration_number}</td>
            <td>{country(entity.country)}</td>
            <td>
              <EntityStatusTag status={entity.status} />
            </td>
            <td>
              <RiskTag risk={entity.risk} />
            </td>
            <td>
              <AmlStatusTag status={entity.aml_status} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
