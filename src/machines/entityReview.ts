/**
 * The review of a business entity (KYB) from its own data: its ownership (through ./ownership), the UBO
 * threshold check, and the risk drivers the AiAgent tab states. Deterministic rules, no model: the same
 * entity always gives the same drivers, in the same order. Pure.
 */
import type { BusinessEntity, EntityCheck, EntityCheckResult } from '#contract/entities';
import { ENTITY_PARTY } from '#contract/entities';
import {
  computeOwnership,
  DEFAULT_UBO_THRESHOLD,
  type Ownership,
  OwnershipError,
  type Party,
} from './ownership';

/** Where a holding company or a business partner country draws no extra attention: the EU/EEA, TR, GB, CH. */
export const HOME_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
  'TR',
  'GB',
  'CH',
]);

/** A proof of address older than this many months at the last check is out of date (as for utility bills, docs/product/constants.md). */
export const ADDRESS_PROOF_MONTHS = 3;

export function entityParties(entity: BusinessEntity): Party[] {
  return [
    { id: ENTITY_PARTY, kind: 'company', name: entity.name },
    ...entity.companies.map((company): Party => ({ id: company.id, kind: 'company', name: company.name })),
    ...entity.individuals.map((person): Party => ({ id: person.id, kind: 'person', name: person.name })),
  ];
}

export type OwnershipOutcome = { ok: true; ownership: Ownership } | { ok: false; error: OwnershipError };

export function entityOwnership(
  entity: BusinessEntity,
  threshold: number = DEFAULT_UBO_THRESHOLD,
): OwnershipOutcome {
  try {
    return {
      ok: true,
      ownership: computeOwnership(ENTITY_PARTY, entityParties(entity), entity.ownership, threshold),
    };
  } catch (error) {
    if (error instanceof OwnershipError) return { ok: false, error };
    throw error;
  }
}

export interface ReviewCheck {
  kind: EntityCheck['kind'] | 'uboThreshold';
  subject?: string;
  result: EntityCheckResult;
  checked_at: string | null;
  source: string | null;
  finding?: string;
  /** uboThreshold: how many persons are above the threshold. */
  ubos?: number;
}

/** The stored checks and the UBO threshold check computed from the ownership (after adverse media). */
export function entityChecks(entity: BusinessEntity, outcome: OwnershipOutcome): ReviewCheck[] {
  const ubos = outcome.ok ? outcome.ownership.owners.filter((owner) => owner.ubo).length : 0;
  const last = entity.checks.map((check) => check.checked_at).find(Boolean) ?? null;
  const ubo: ReviewCheck = {
    kind: 'uboThreshold',
    result: !outcome.ok ? 'failed' : ubos > 0 ? 'passed' : 'review',
    checked_at: last,
    source: null,
    ubos,
  };
  return [...entity.checks, ubo];
}

export type DriverSeverity = 'high' | 'medium' | 'low' | 'info';

export type RiskDriver =
  | { key: 'ownershipError'; severity: 'high'; parties: string }
  | { key: 'sanctionsHit'; severity: 'high'; name: string; finding: string }
  | { key: 'sanctionsReview'; severity: 'medium'; name: string; finding: string }
  | { key: 'entitySanctions'; severity: DriverSeverity; finding: string }
  | { key: 'adverseMedia'; severity: DriverSeverity; finding: string }
  | { key: 'registry'; severity: DriverSeverity; finding: string }
  | { key: 'sanctionedCountries'; severity: 'high' }
  | { key: 'bearerShares'; severity: 'high' }
  | { key: 'pep'; severity: 'medium'; names: string }
  | { key: 'cashIntensive'; severity: 'medium' }
  | { key: 'offshoreHolding'; severity: 'medium'; companies: string }
  | { key: 'layers'; severity: 'low'; count: number; companies: string }
  | { key: 'noUbo'; severity: 'medium'; threshold: number }
  | { key: 'addressOld'; severity: 'medium'; issued: string; checked: string }
  | { key: 'foreignCountries'; severity: 'low'; countries: string[] }
  | { key: 'pending'; severity: 'info'; count: number }
  | { key: 'ubos'; severity: 'info'; owners: { name: string; effective: number }[]; threshold: number }
  | { key: 'unlisted'; severity: 'info'; share: number }
  | { key: 'none'; severity: 'info' };

const ORDER: Record<DriverSeverity, number> = { high: 0, medium: 1, low: 2, info: 3 };

const severityOf = (result: EntityCheckResult): DriverSeverity =>
  result === 'failed' ? 'high' : result === 'review' ? 'medium' : 'info';

/** Months between two yyyy-MM-dd dates, by calendar: `from` plus that many months is not after `to`. */
function olderThanMonths(from: string, to: string, months: number): boolean {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const limit = new Date(Date.UTC(y, m - 1 + months, d));
  return limit.getTime() < Date.parse(`${to}T00:00:00Z`);
}

/** The entity's risk drivers, most serious first; `none` when nothing above information was found. */
export function riskDrivers(entity: BusinessEntity, outcome: OwnershipOutcome): RiskDriver[] {
  const drivers: RiskDriver[] = [];
  const nameOf = (id: string | undefined) =>
    entity.individuals.find((person) => person.id === id)?.name ?? id ?? '';

  if (!outcome.ok)
    drivers.push({ key: 'ownershipError', severity: 'high', parties: outcome.error.parties.join(' → ') });

  for (const check of entity.checks) {
    if (check.result === 'passed' || check.result === 'pending') continue;
    const finding = check.finding ?? '';
    if (check.kind === 'sanctionsIndividual') {
      drivers.push(
        check.result === 'failed'
          ? { key: 'sanctionsHit', severity: 'high', name: nameOf(check.subject), finding }
          : { key: 'sanctionsReview', severity: 'medium', name: nameOf(check.subject), finding },
      );
    } else if (check.kind === 'sanctionsEntity') {
      drivers.push({ key: 'entitySanctions', severity: severityOf(check.result), finding });
    } else if (check.kind === 'adverseMedia') {
      drivers.push({ key: 'adverseMedia', severity: severityOf(check.result), finding });
    } else {
      drivers.push({ key: 'registry', severity: severityOf(check.result), finding });
    }
  }

  const answers = entity.questionnaire;
  const isYes = (answer: (typeof answers)[keyof typeof answers]) => answer.type === 'yesNo' && answer.value;
  if (isYes(answers.sanctionedCountries)) drivers.push({ key: 'sanctionedCountries', severity: 'high' });
  if (isYes(answers.bearerShares)) drivers.push({ key: 'bearerShares', severity: 'high' });
  const peps = entity.individuals.filter((person) => person.pep).map((person) => person.name);
  if (peps.length > 0 || isYes(answers.pep))
    drivers.push({ key: 'pep', severity: 'medium', names: peps.join(', ') });
  if (isYes(answers.cashIntensive)) drivers.push({ key: 'cashIntensive', severity: 'medium' });

  const offshore = entity.companies.filter((company) => !HOME_COUNTRIES.has(company.country));
  if (offshore.length > 0) {
    drivers.push({
      key: 'offshoreHolding',
      severity: 'medium',
      companies: offshore.map((company) => `${company.name} (${company.country})`).join(', '),
    });
  }

  if (outcome.ok) {
    const { owners, threshold, tree } = outcome.ownership;
    const ubos = owners.filter((owner) => owner.ubo);
    if (ubos.length === 0) drivers.push({ key: 'noUbo', severity: 'medium', threshold });
    const layered = entity.companies.filter((company) =>
      entity.ownership.some((link) => link.owner === company.id),
    );
    if (layered.length > 0) {
      drivers.push({
        key: 'layers',
        severity: 'low',
        count: Math.max(...owners.map((owner) => owner.layers)),
        companies: layered.map((company) => company.name).join(', '),
      });
    }
    if (ubos.length > 0) {
      drivers.push({
        key: 'ubos',
        severity: 'info',
        owners: ubos.map((owner) => ({ name: owner.party.name, effective: owner.effective })),
        threshold,
      });
    }
    if (tree.unlisted > 0 && entity.ownership.length > 0) {
      drivers.push({ key: 'unlisted', severity: 'info', share: tree.unlisted });
    }
  }

  const proof = entity.documents.find((document) => document.kind === 'address');
  const lastCheck = entity.checks.map((check) => check.checked_at).find(Boolean);
  if (proof && lastCheck && olderThanMonths(proof.issued, lastCheck, ADDRESS_PROOF_MONTHS)) {
    drivers.push({ key: 'addressOld', severity: 'medium', issued: proof.issued, checked: lastCheck });
  }

  const foreign =
    answers.countries.type === 'countries'
      ? answers.countries.value.filter((code) => !HOME_COUNTRIES.has(code))
      : [];
  if (foreign.length > 0) drivers.push({ key: 'foreignCountries', severity: 'low', countries: foreign });

  const pending = entity.checks.filter((check) => check.result === 'pending').length;
  if (pending > 0) drivers.push({ key: 'pending', severity: 'info', count: pending });

  if (!drivers.some((driver) => driver.severity !== 'info')) drivers.push({ key: 'none', severity: 'info' });
  // A stable sort: within one severity, the order above.
  return drivers
    .map((driver, index) => ({ driver, index }))
    .sort((a, b) => ORDER[a.driver.severity] - ORDER[b.driver.severity] || a.index - b.index)
    .map(({ driver }) => driver);
}
