/**
 * Business entities (KYB, docs/product/README.md, docs/product/entities.md): the shape of the hard-coded sample data the entity area runs on.
 * No server holds these: the studio never calls anything for them.
 */
import type { RiskLevel } from './constants';

/** These status values appear only on business entities. */
export const ENTITY_STATUSES = ['Clear', 'Risk', 'Created'] as const;
export type EntityStatus = (typeof ENTITY_STATUSES)[number];

/** Legal forms, by kind; the local abbreviation (A.Ş., GmbH …) is data of each entity. */
export const LEGAL_FORMS = ['jointStock', 'limited', 'partnership', 'cooperative', 'foundation'] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

export const AML_STATUSES = ['clear', 'potentialMatch', 'match', 'notScreened'] as const;
export type EntityAmlStatus = (typeof AML_STATUSES)[number];

export const DOCUMENT_KINDS = ['incorporation', 'articles', 'shareholders', 'address'] as const;
export type EntityDocumentKind = (typeof DOCUMENT_KINDS)[number];

export const CHECK_KINDS = [
  'registry',
  'sanctionsEntity',
  'sanctionsIndividual',
  'adverseMedia',
  'uboThreshold',
] as const;
export type EntityCheckKind = (typeof CHECK_KINDS)[number];

export const CHECK_RESULTS = ['passed', 'review', 'failed', 'pending'] as const;
export type EntityCheckResult = (typeof CHECK_RESULTS)[number];

export const INDIVIDUAL_ROLES = ['chair', 'director', 'secretary', 'signatory', 'boardMember'] as const;
export type IndividualRole = (typeof INDIVIDUAL_ROLES)[number];

export interface EntityDocument {
  id: string;
  kind: EntityDocumentKind;
  /** Issue date (yyyy-MM-dd). */
  issued: string;
  /** The sample image, a static file of the studio (public/entity-samples/). */
  file: string;
}

export interface EntityIndividual {
  id: string;
  name: string;
  roles: IndividualRole[];
  /** ISO 3166-1 alpha-2. */
  nationality: string;
  birth_date: string;
  /** Politically exposed person. */
  pep: boolean;
}

/** A company between the entity and its ultimate owners. */
export interface IntermediateCompany {
  id: string;
  name: string;
  country: string;
  registration_number: string;
}

export interface EntityCheck {
  kind: Exclude<EntityCheckKind, 'uboThreshold'>;
  /** For sanctionsIndividual: the individual's id. */
  subject?: string;
  result: EntityCheckResult;
  /** yyyy-MM-dd; null while pending. */
  checked_at: string | null;
  /** The list, registry or press source that was checked (data, not translated). */
  source: string;
  /** What was found, when anything was (data, not translated). */
  finding?: string;
}

export const QUESTION_IDS = [
  'activity',
  'countries',
  'monthlyVolume',
  'sourceOfFunds',
  'cashIntensive',
  'sanctionedCountries',
  'pep',
  'bearerShares',
  'employees',
  'regulated',
] as const;
export type QuestionId = (typeof QUESTION_IDS)[number];

export type QuestionAnswer =
  | { type: 'choice'; value: string }
  | { type: 'countries'; value: string[] }
  | { type: 'yesNo'; value: boolean }
  | { type: 'skipped' };

export interface Registry {
  /** The register the entity is entered in (data). */
  name: string;
  incorporated: string;
  address: string;
  tax_number: string;
  /** NACE Rev. 2 code and its English label (data). */
  industry: string;
  capital: { amount: number; currency: string };
  website: string | null;
}

export interface BusinessEntity {
  id: number;
  name: string;
  legal_form: LegalForm;
  /** The local abbreviation of the legal form (A.Ş., GmbH, S.A.S. …). */
  local_form: string;
  registration_number: string;
  country: string;
  risk: RiskLevel;
  status: EntityStatus;
  aml_status: EntityAmlStatus;
  created_at: string;
  registry: Registry;
  documents: EntityDocument[];
  individuals: EntityIndividual[];
  companies: IntermediateCompany[];
  /** Who owns whom; the entity itself is the party `entity`. */
  ownership: { owner: string; owned: string; share: number }[];
  checks: EntityCheck[];
  questionnaire: Record<QuestionId, QuestionAnswer>;
}

/** The party id of the entity itself in `ownership`. */
export const ENTITY_PARTY = 'entity';
