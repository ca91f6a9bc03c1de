import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS, LEGAL_FORMS, QUESTION_IDS } from '#contract/entities';
import { filterEntities, readEntityView } from '../../../src/machines/entityList';
import { entityChecks, entityOwnership, riskDrivers } from '../../../src/machines/entityReview';
import { alwaysAvailable, smartModules } from '../../../src/machines/smartModules';
import { withChanges } from '../../../src/services/entities/entityChanges';
import {
  CHOICE_OPTIONS,
  ENTITY_QUESTIONS,
  findEntity,
  SAMPLE_ENTITIES,
} from '../../../src/services/entities/sampleEntities';

const entity = (id: number) => {
  const found = findEntity(id);
  if (!found) throw new Error(`no sample entity ${id}`);
  return found;
};
const drivers = (id: number) => riskDrivers(entity(id), entityOwnership(entity(id))).map((d) => d.key);

describe('sample business entities', () => {
  it('are at least 12, varied in legal form, country and risk', () => {
    expect(SAMPLE_ENTITIES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(SAMPLE_ENTITIES.map((e) => e.legal_form))).toEqual(new Set(LEGAL_FORMS));
    const countries = new Set(SAMPLE_ENTITIES.map((e) => e.country));
    expect(countries).toContain('TR');
    expect(
      [...countries].filter((c) => ['DE', 'FR', 'NL', 'IT', 'ES', 'PL', 'IE', 'EE'].includes(c)).length,
    ).toBeGreaterThan(4);
    expect(new Set(SAMPLE_ENTITIES.map((e) => e.risk)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(SAMPLE_ENTITIES.map((e) => e.status))).toEqual(new Set(['Clear', 'Risk', 'Created']));
    expect(new Set(SAMPLE_ENTITIES.map((e) => e.id)).size).toBe(SAMPLE_ENTITIES.length);
  });

  it('each have the four documents, with their image file shipped', () => {
    for (const e of SAMPLE_ENTITIES) {
      expect(e.documents.map((d) => d.kind)).toEqual([...DOCUMENT_KINDS]);
      for (const document of e.documents) {
        const file = join('public', document.file);
        expect(existsSync(file), file).toBe(true);
        expect(readFileSync(file, 'utf8')).toContain('<svg');
      }
    }
  });

  it('each compute their ownership, screen every individual and answer the ten questions', () => {
    for (const e of SAMPLE_ENTITIES) {
      const outcome = entityOwnership(e);
      expect(outcome.ok, e.name).toBe(true);
      const screened = e.checks.filter((c) => c.kind === 'sanctionsIndividual').map((c) => c.subject);
      expect(screened).toEqual(e.individuals.map((p) => p.id));
      expect(e.checks.map((c) => c.kind)).toEqual(
        expect.arrayContaining(['registry', 'sanctionsEntity', 'adverseMedia']),
      );
      expect(entityChecks(e, outcome).at(-1)?.kind).toBe('uboThreshold');
      expect(Object.keys(e.questionnaire).sort()).toEqual([...QUESTION_IDS].sort());
      for (const [question, answer] of Object.entries(e.questionnaire)) {
        if (answer.type !== 'choice') continue;
        expect(CHOICE_OPTIONS[question as keyof typeof CHOICE_OPTIONS], `${e.name} ${question}`).toContain(
          answer.value,
        );
      }
    }
  });

  it('hold owners through intermediate companies, and persons above and below the threshold', () => {
    const ubosThroughCompanies = SAMPLE_ENTITIES.flatMap((e) => {
      const outcome = entityOwnership(e);
      return outcome.ok ? outcome.ownership.owners.filter((o) => o.ubo && o.layers > 0) : [];
    });
    expect(ubosThroughCompanies.length).toBeGreaterThan(5);
    // Costa Azul: 24 % directly each, 26 % more each through Inversiones Ibéricas.
    const costa = entityOwnership(entity(8));
    expect(
      costa.ok && costa.ownership.owners.map((o) => [o.party.name, o.effective, o.ubo, o.paths]),
    ).toEqual([
      ['Javier Morales Ruiz', 50, true, 2],
      ['Lucía Ortega Sanz', 50, true, 2],
    ]);
  });

  it('has the questionnaire sort orders 1 to 10', () => {
    expect(ENTITY_QUESTIONS.map((q) => q.sort_order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ENTITY_QUESTIONS.map((q) => q.id)).toEqual([...QUESTION_IDS]);
  });
});

describe('entity checks and risk drivers', () => {
  it('passes the UBO check with a person above the threshold, asks a review without one', () => {
    const ubo = (id: number) => entityChecks(entity(id), entityOwnership(entity(id))).at(-1);
    expect(ubo(1)).toMatchObject({ result: 'passed', ubos: 2 });
    expect(ubo(3)).toMatchObject({ result: 'review', ubos: 0 });
    expect(ubo(13)).toMatchObject({ result: 'review', ubos: 0 });
  });

  it('puts a sanctions hit first and states the offshore holding and the PEP', () => {
    const keys = drivers(11);
    expect(keys[0]).toBe('sanctionsHit');
    expect(keys).toEqual(
      expect.arrayContaining(['sanctionedCountries', 'pep', 'offshoreHolding', 'entitySanctions', 'ubos']),
    );
    expect(keys).not.toContain('none');
  });

  it('finds nothing to report on a plain, fully screened company', () => {
    expect(drivers(1)).toEqual(['ubos', 'unlisted', 'none']);
  });

  it('states an old proof of address, pending checks and a missing UBO', () => {
    expect(drivers(3)).toEqual(['cashIntensive', 'noUbo', 'addressOld', 'foreignCountries', 'unlisted']);
    expect(drivers(2)).toEqual(expect.arrayContaining(['pending', 'layers', 'ubos']));
  });

  it('is deterministic', () => {
    for (const e of SAMPLE_ENTITIES) {
      expect(riskDrivers(e, entityOwnership(e))).toEqual(riskDrivers(e, entityOwnership(e)));
    }
  });
});

describe('entity list filters', () => {
  it('reads the view from the URL and drops unknown values', () => {
    expect(
      readEntityView(new URLSearchParams('status=Risk&risk=Bad&country=tr&type=limited&search=x')),
    ).toEqual({ search: 'x', status: 'Risk', risk: '', country: '', type: 'limited' });
  });

  it('filters by status, risk, country, legal form and a search that ignores case and accents', () => {
    const view = { search: '', status: '', risk: '', country: '', type: '' } as const;
    const names = (change: Partial<ReturnType<typeof readEntityView>>) =>
      filterEntities(SAMPLE_ENTITIES, { ...view, ...change }).map((e) => e.id);
    expect(names({ status: 'Risk' })).toEqual([7, 8, 11]);
    expect(names({ country: 'TR', type: 'jointStock' })).toEqual([1, 12]);
    expect(names({ risk: 'Very High' })).toEqual([11]);
    expect(names({ search: 'bogazici' })).toEqual([2]);
    expect(names({ search: 'LUMIERE' })).toEqual([5]);
    expect(names({ search: 'HRB 148213' })).toEqual([4]);
    expect(names({ status: 'Clear', country: 'EE' })).toEqual([]);
  });

  it('applies only known local changes', () => {
    const changed = withChanges({ 1: { status: 'Risk', risk: 'High' }, 2: { status: 'Bogus' as never } });
    expect(changed.find((e) => e.id === 1)).toMatchObject({ status: 'Risk', risk: 'High' });
    expect(changed.find((e) => e.id === 2)).toMatchObject({ status: 'Created', risk: 'Mid' });
  });
});

describe('smart modules', () => {
  it('shows what each service unlocks and which are off', () => {
    const modules = smartModules({
      aml_provider: null,
      active_services: ['verification', 'video_kyc', 'aml'],
    });
    expect(modules.map((m) => [m.service, m.state, m.tabs, m.sidebar])).toEqual([
      ['verification', 'on', ['verification'], []],
      ['ai_agent', 'off', [], []],
      ['aml', 'needsProvider', ['aml'], []],
      ['video_kyc', 'on', ['videoCalls'], []],
      ['transactions', 'off', ['transactions'], []],
      ['questionnaire', 'off', ['questionnaires'], []],
      ['biopay', 'off', [], ['bioPay']],
    ]);
    expect(
      smartModules({ aml_provider: 'Local', active_services: ['aml'] }).find((m) => m.service === 'aml')
        ?.state,
    ).toBe('on');
  });

  it('lists what every company has', () => {
    expect(alwaysAvailable()).toEqual({
      tabs: ['info', 'aiAgent', 'documents'],
      sidebar: [
        'checklists',
        'logs',
        'devices',
        'archive',
        'notes',
        'ai',
        'helpDesk',
        'otherDocuments',
        'bioLogin',
      ],
    });
  });
});
