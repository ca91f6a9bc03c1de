/**
 * Smart modules: the company's services (its config's `active_services` and AML provider, docs/product/entities.md, docs/product/roles.md)
 * and what each one unlocks in the studio (profile tabs and sidebar lists, docs/product/screens.md#profile-screen). Pure: the profile
 * tab rule itself is ./profileTabs, so this page and the profile screen cannot disagree.
 */
import { SERVICES, type Service } from '#contract/constants';
import { PROFILE_TABS, type ProfileTab, type TabConfig, visibleTabs } from './profileTabs';

/** Profile sidebar lists (docs/product/screens.md); only BioPay depends on a service. */
export const SIDEBAR_LISTS = [
  'checklists',
  'logs',
  'devices',
  'archive',
  'notes',
  'ai',
  'helpDesk',
  'otherDocuments',
  'bioLogin',
  'bioPay',
] as const;
export type SidebarList = (typeof SIDEBAR_LISTS)[number];

const SIDEBAR_SERVICE: Partial<Record<SidebarList, Service>> = { bioPay: 'biopay' };

export type ModuleState = 'on' | 'off' | 'needsProvider';

export interface SmartModule {
  service: Service;
  state: ModuleState;
  tabs: ProfileTab[];
  sidebar: SidebarList[];
}

export function smartModules(config: TabConfig): SmartModule[] {
  const shownTabs = visibleTabs(config);
  return SERVICES.map((service) => {
    const active = config.active_services.includes(service);
    const tabs = PROFILE_TABS.filter((tab) => tab.service === service).map((tab) => tab.id);
    const sidebar = SIDEBAR_LISTS.filter((list) => SIDEBAR_SERVICE[list] === service);
    // AML also needs a provider (docs/product/roles.md): switched on without one, its tab stays hidden.
    const state: ModuleState = !active
      ? 'off'
      : tabs.some((tab) => !shownTabs.includes(tab))
        ? 'needsProvider'
        : 'on';
    return { service, state, tabs, sidebar };
  });
}

/** What every company has, whatever its services. */
export function alwaysAvailable(): { tabs: ProfileTab[]; sidebar: SidebarList[] } {
  return {
    tabs: PROFILE_TABS.filter((tab) => tab.service === null).map((tab) => tab.id),
    sidebar: SIDEBAR_LISTS.filter((list) => !SIDEBAR_SERVICE[list]),
  };
}
