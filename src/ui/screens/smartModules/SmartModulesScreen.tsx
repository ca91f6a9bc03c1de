import { Button, Callout, Card, Classes, H2, H4, H5, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Service } from '#contract/constants';
import type { ProfileTab } from '../../../machines/profileTabs';
import {
  alwaysAvailable,
  type ModuleState,
  type SidebarList,
  type SmartModule,
  smartModules,
} from '../../../machines/smartModules';
import { isApiError } from '../../../services/api/http';
import { getCompanyConfig, profileDetailKeys } from '../../../services/api/profileDetail';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';

/** Cards in the grid of studio.css; the sections' spacing is in app/signedIn.css (no stylesheet of its own). */
const LIST = `studio-fields ${Classes.LIST_UNSTYLED}`;

const STATE_INTENTS: Record<ModuleState, Intent> = {
  on: Intent.SUCCESS,
  off: Intent.NONE,
  needsProvider: Intent.WARNING,
};

/** smart-modules (docs/product/screens.md): the company's services from its config and what each unlocks in the studio. */
export function SmartModulesScreen() {
  const { t } = useTranslation('modules');
  const { t: ts } = useTranslation('screens');
  const { t: tc } = useTranslation();
  const title = ts('smartModules.title');
  usePageTitle(title);
  const companyId = useActiveAccount()?.company_id ?? 0;
  const config = useQuery({
    queryKey: profileDetailKeys.config(companyId),
    queryFn: ({ signal }) => getCompanyConfig(companyId, { signal }),
    enabled: companyId > 0,
    staleTime: 5 * 60_000,
  });

  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <p className="studio-muted">{t('intro')}</p>
      {config.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          <p>
            {isApiError(config.error) && config.error.detail ? config.error.detail : tc('messages.error')}
          </p>
          <Button icon="refresh" text={t('retry')} onClick={() => config.refetch()} />
        </Callout>
      ) : !config.data ? (
        <Spinner size={24} />
      ) : (
        <Modules providerName={config.data.aml_provider} modules={smartModules(config.data)} />
      )}
    </section>
  );
}

function Modules({ modules, providerName }: { modules: SmartModule[]; providerName: string | null }) {
  const { t } = useTranslation('modules');
  const always = alwaysAvailable();
  const on = modules.filter((module) => module.state !== 'off');
  const off = modules.filter((module) => module.state === 'off');
  return (
    <>
      <Callout icon="shield" className="studio-settings-card">
        {providerName ? t('provider.named', { name: providerName }) : t('provider.none')}
      </Callout>
      <H4 id="modules-on" className="studio-modules-heading">
        {t('on.title', { count: on.length })}
      </H4>
      {on.length === 0 ? (
        <p className="studio-muted">{t('on.empty')}</p>
      ) : (
        <ul className={LIST} aria-labelledby="modules-on">
          {on.map((module) => (
            <ModuleCard key={module.service} module={module} />
          ))}
        </ul>
      )}
      <H4 id="modules-off" className="studio-modules-heading">
        {t('off.title', { count: off.length })}
      </H4>
      {off.length === 0 ? (
        <p className="studio-muted">{t('off.empty')}</p>
      ) : (
        <ul className={LIST} aria-labelledby="modules-off">
          {off.map((module) => (
            <ModuleCard key={module.service} module={module} />
          ))}
        </ul>
      )}
      <H4 id="modules-always" className="studio-modules-heading">
        {t('always.title')}
      </H4>
      <Unlocks tabs={always.tabs} sidebar={always.sidebar} />
    </>
  );
}

function ModuleCard({ module }: { module: SmartModule }) {
  const { t } = useTranslation('modules');
  const name = (service: Service) => t(`service.${service}.name`);
  return (
    <li>
      <Card compact data-state={module.state}>
        <div className="studio-section-title">
          <strong>{name(module.service)}</strong>
          <Tag minimal round intent={STATE_INTENTS[module.state]}>
            {t(`state.${module.state}`)}
          </Tag>
        </div>
        <p className="studio-muted">{t(`service.${module.service}.what`)}</p>
        {module.state === 'needsProvider' && (
          <Callout intent={Intent.WARNING} icon="warning-sign" compact>
            {t('needsProvider')}
          </Callout>
        )}
        {module.tabs.length + module.sidebar.length > 0 ? (
          <>
            <H5 className={Classes.TEXT_MUTED}>
              {module.state === 'off' ? t('unlocks.would') : t('unlocks.does')}
            </H5>
            <Unlocks tabs={module.tabs} sidebar={module.sidebar} />
          </>
        ) : (
          <p className="studio-muted">{t('unlocks.nothing')}</p>
        )}
      </Card>
    </li>
  );
}

function Unlocks({ tabs, sidebar }: { tabs: readonly ProfileTab[]; sidebar: readonly SidebarList[] }) {
  const { t } = useTranslation('modules');
  const { t: tp } = useTranslation('profile');
  return (
    <ul>
      {tabs.map((tab) => (
        <li key={`tab-${tab}`}>{t('unlocks.tab', { name: tp(`tabs.${tab}`) })}</li>
      ))}
      {sidebar.map((list) => (
        <li key={`sidebar-${list}`}>
          {t('unlocks.sidebar', {
            name:
              list === 'ai'
                ? tp('ai.title')
                : list === 'helpDesk'
                  ? tp('helpDesk.title')
                  : tp(`sidebar.${list}`),
          })}
        </li>
      ))}
    </ul>
  );
}
