/** The entities list's search and filters (/entities), kept in the URL. Pure. */
import { RISK_LEVELS, type RiskLevel } from '#contract/constants';
import {
  type BusinessEntity,
  ENTITY_STATUSES,
  type EntityStatus,
  LEGAL_FORMS,
  type LegalForm,
} from '#contract/entities';

/** The list's search and filters, kept in the URL (defaults left out, unknown values dropped). */
export interface EntityListView {
  search: string;
  status: EntityStatus | '';
  risk: RiskLevel | '';
  country: string;
  type: LegalForm | '';
}

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | '' =>
  allowed.includes(value as T) ? (value as T) : '';

export function readEntityView(query: URLSearchParams): EntityListView {
  return {
    search: query.get('search')?.slice(0, 200) ?? '',
    status: oneOf(query.get('status'), ENTITY_STATUSES),
    risk: oneOf(query.get('risk'), RISK_LEVELS),
    country: /^[A-Z]{2}$/.test(query.get('country') ?? '') ? (query.get('country') as string) : '',
    type: oneOf(query.get('type'), LEGAL_FORMS),
  };
}

/** Case- and accent-insensitive (Turkish dotted and dotless i alike) search over name and numbers. */
const fold = (text: string) =>
  text.toLocaleLowerCase('tr').replace(/ı/g, 'i').normalize('NFD').replace(/\p{M}/gu, '');

export function filterEntities(entities: readonly BusinessEntity[], view: EntityListView): BusinessEntity[] {
  const search = fold(view.search.trim());
  return entities.filter(
    (entity) =>
      (!search ||
        fold(entity.name).includes(search) ||
        fold(entity.registration_number).includes(search) ||
        fold(entity.registry.tax_number).includes(search)) &&
      (!view.status || entity.status === view.status) &&
      (!view.risk || entity.risk === view.risk) &&
      (!view.country || entity.country === view.country) &&
      (!view.type || entity.legal_form === view.type),
  );
}
