import { describe, expect, it } from 'vitest';
import { SERVICES } from '#contract/constants';
import { visibleTabs } from '../../../src/machines/profileTabs';

describe('profile tabs (company services, AML provider)', () => {
  it('shows every tab when every service is on and an AML provider is named', () => {
    expect(visibleTabs({ aml_provider: 'Lists', active_services: SERVICES })).toEqual([
      'info',
      'verification',
      'aiAgent',
      'documents',
      'aml',
      'videoCalls',
      'transactions',
      'questionnaires',
    ]);
  });

  it('shows only the tabs without a service when none is on', () => {
    expect(visibleTabs({ aml_provider: null, active_services: [] })).toEqual([
      'info',
      'aiAgent',
      'documents',
    ]);
  });

  it('hides AML without a provider even when the service is on', () => {
    expect(visibleTabs({ aml_provider: null, active_services: ['aml'] })).not.toContain('aml');
    expect(visibleTabs({ aml_provider: 'Lists', active_services: ['aml'] })).toContain('aml');
  });
});
