/**
 * The profile screen's tabs (docs/product/screens.md) and the company service each needs; AML also needs the company config
 * to name an AML provider (docs/product/roles.md). Pure data and a rule, shared by the view and its tests.
 */
import type { Service } from '#contract/constants';

export const PROFILE_TABS = [
  { id: 'info', service: null },
  { id: 'verification', service: 'verification' },
  { id: 'aiAgent', service: null },
  { id: 'documents', service: null },
  { id: 'aml', service: 'aml' },
  { id: 'videoCalls', service: 'video_kyc' },
  { id: 'transactions', service: 'transactions' },
  { id: 'questionnaires', service: 'questionnaire' },
] as const satisfies readonly { id: string; service: Service | null }[];

export type ProfileTab = (typeof PROFILE_TABS)[number]['id'];

export interface TabConfig {
  aml_provider: string | null;
  active_services: readonly string[];
}

export function visibleTabs(config: TabConfig): ProfileTab[] {
  return PROFILE_TABS.filter(({ id, service }) => {
    if (!service) return true;
    if (!config.active_services.includes(service)) return false;
    return id !== 'aml' || !!config.aml_provider;
  }).map(({ id }) => id);
}
