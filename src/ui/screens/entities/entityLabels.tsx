import { Intent, Tag } from '@blueprintjs/core';
import { useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { BusinessEntity, EntityAmlStatus, EntityStatus } from '#contract/entities';
import { entityChanges, withChanges } from '../../../services/entities/entityChanges';
import { formatsFor } from '../../format';

/** The sample entities with this session's local changes (sample data only, no calls). */
export function useEntities(): BusinessEntity[] {
  const changes = useSyncExternalStore(entityChanges.subscribe, entityChanges.snapshot);
  return useMemo(() => withChanges(changes), [changes]);
}

export function useEntity(id: number): BusinessEntity | undefined {
  return useEntities().find((entity) => entity.id === id);
}

const STATUS_INTENTS: Record<EntityStatus, Intent> = {
  Clear: Intent.SUCCESS,
  Risk: Intent.DANGER,
  Created: Intent.NONE,
};

const AML_INTENTS: Record<EntityAmlStatus, Intent> = {
  clear: Intent.SUCCESS,
  potentialMatch: Intent.WARNING,
  match: Intent.DANGER,
  notScreened: Intent.NONE,
};

/** Country names in the interface language (ISO 3166-1 alpha-2 codes in the data). */
export function useCountryName(): (code: string) => string {
  const { i18n } = useTranslation();
  return formatsFor(i18n.language).country;
}

export function useEntityDate(): (date: string) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
    return (date: string) => format.format(new Date(date.length === 10 ? `${date}T00:00:00Z` : date));
  }, [i18n.language]);
}

export function usePercent(): (value: number) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language, {
      style: 'percent',
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    });
    return (value: number) => format.format(value / 100);
  }, [i18n.language]);
}

export function EntityStatusTag({ status }: { status: EntityStatus }) {
  const { t } = useTranslation('entities');
  return (
    <Tag intent={STATUS_INTENTS[status]} minimal round>
      {t(`status.${status}`)}
    </Tag>
  );
}

export function AmlStatusTag({ status }: { status: EntityAmlStatus }) {
  const { t } = useTranslation('entities');
  return (
    <Tag intent={AML_INTENTS[status]} minimal icon="shield">
      {t(`aml.${status}`)}
    </Tag>
  );
}
