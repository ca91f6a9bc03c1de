import { AnchorButton, H2, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import type { BusinessEntity } from '#contract/entities';
import { useAddressQuery } from '../../app/useAddressQuery';
import { usePageTitle } from '../../app/usePageTitle';
import { RiskTag } from '../../components/profileLabels';
import { AmlStatusTag, EntityStatusTag, useCountryName, useEntity } from '../entities/entityLabels';
import '../entities/entities.css';
import '../entities/icons';
import { AiAgentTab } from './AiAgentTab';
import { DetailsTab } from './DetailsTab';
import { DocumentsTab } from './DocumentsTab';
import { EmployeesTab } from './EmployeesTab';
import { QuestionnaireTab } from './QuestionnaireTab';
import { StatusTab } from './StatusTab';

/** The entity screen's tabs (docs/product/screens.md), Status first and default. */
export const ENTITY_TABS = [
  'status',
  'aiAgent',
  'documents',
  'details',
  'employees',
  'questionnaire',
] as const;
export type EntityTab = (typeof ENTITY_TABS)[number];

/** The entity of the address, or a "not found" state (ids are the sample data's). */
export function useRouteEntity(): BusinessEntity | undefined {
  const { id } = useParams<{ id: string }>();
  return useEntity(/^\d+$/.test(id ?? '') ? Number(id) : -1);
}

export function EntityNotFound() {
  const { t } = useTranslation('entities');
  return (
    <NonIdealState
      icon="office"
      title={t('notFound.title')}
      description={t('notFound.body')}
      action={
        <Link href="~/entities" asChild>
          <AnchorButton role="link" icon="arrow-left" text={t('notFound.back')} />
        </Link>
      }
    />
  );
}

/** The header shared by the entity screen and its documents page: name, status, risk and AML status. */
export function EntityHeader({ entity }: { entity: BusinessEntity }) {
  const { t } = useTranslation('entities');
  const country = useCountryName();
  return (
    <>
      <header className="studio-profile-header">
        <H2 id="page-title">{entity.name}</H2>
        <EntityStatusTag status={entity.status} />
        <RiskTag risk={entity.risk} />
        <AmlStatusTag status={entity.aml_status} />
      </header>
      <p className="studio-muted studio-profile-meta">
        {[
          `${t(`legalForm.${entity.legal_form}`)} (${entity.local_form})`,
          t('meta.registration', { number: entity.registration_number }),
          country(entity.country),
        ].join(' · ')}
      </p>
    </>
  );
}

/** entity/:id (docs/product/screens.md): the header and the six tabs; the tab is in the URL (`?tab=`). */
export function EntityScreen() {
  const { t } = useTranslation('entities');
  const { t: ts } = useTranslation('screens');
  const entity = useRouteEntity();
  const [query, changeQuery] = useAddressQuery();
  usePageTitle(entity?.name ?? ts('entity.title'));
  if (!entity) return <EntityNotFound />;

  const requested = query.get('tab') as EntityTab | null;
  const selected: EntityTab = requested && ENTITY_TABS.includes(requested) ? requested : 'status';
  return (
    <section className="studio-page studio-page-wide studio-entity" aria-labelledby="page-title">
      <EntityHeader entity={entity} />
      <Tabs
        id="entity-tabs"
        selectedTabId={selected}
        onChange={(tab) =>
          changeQuery((current) => {
            const next = new URLSearchParams(current);
            if (tab === 'status') next.delete('tab');
            else next.set('tab', String(tab));
            if (tab !== 'employees') next.delete('threshold');
            return next;
          })
        }
        renderActiveTabPanelOnly
        aria-label={t('tabs.label')}
      >
        {ENTITY_TABS.map((tab) => (
          <Tab
            disabled={false}
            key={tab}
            id={tab}
            title={t(`tabs.${tab}`)}
            panel={<TabPanel tab={tab} entity={entity} />}
          />
        ))}
      </Tabs>
    </section>
  );
}

function TabPanel({ tab, entity }: { tab: EntityTab; entity: BusinessEntity }) {
  if (tab === 'status') return <StatusTab entity={entity} />;
  if (tab === 'aiAgent') return <AiAgentTab entity={entity} />;
  if (tab === 'documents') return <DocumentsTab entity={entity} />;
  if (tab === 'details') return <DetailsTab entity={entity} />;
  if (tab === 'employees') return <EmployeesTab entity={entity} />;
  return <QuestionnaireTab entity={entity} />;
}
