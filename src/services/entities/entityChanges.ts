/**
 * Status and risk changes of sample business entities. The entity area runs on sample data only
 * and makes no calls, so a change lives in this browser tab's session storage and is gone when the tab
 * closes. The screens say so.
 */
import { RISK_LEVELS, type RiskLevel } from '#contract/constants';
import { type BusinessEntity, ENTITY_STATUSES, type EntityStatus } from '#contract/entities';
import { SAMPLE_ENTITIES } from './sampleEntities';

export interface EntityChange {
  status?: EntityStatus;
  risk?: RiskLevel;
}

const KEY = 'entity-changes';
type Changes = Record<string, EntityChange>;

const listeners = new Set<() => void>();
let cache: { raw: string | null; changes: Changes } | null = null;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function read(): Changes {
  const raw = storage()?.getItem(KEY) ?? null;
  if (cache && cache.raw === raw) return cache.changes;
  let changes: Changes = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) changes = parsed as Changes;
  } catch {
    // Unreadable: read as no changes.
  }
  cache = { raw, changes };
  return changes;
}

function write(changes: Changes): void {
  try {
    storage()?.setItem(KEY, JSON.stringify(changes));
  } catch {
    // Storage full or blocked: the change is lost with the page, as it would be anyway.
  }
  for (const listener of listeners) listener();
}

export const entityChanges = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: read,
  change(id: number, change: EntityChange): void {
    const all = read();
    write({ ...all, [id]: { ...all[id], ...change } });
  },
  reset(id: number): void {
    const { [id]: _dropped, ...rest } = read();
    write(rest);
  },
};

/** The sample entities with this session's changes applied. */
export function withChanges(changes: Changes): BusinessEntity[] {
  return SAMPLE_ENTITIES.map((entity) => {
    const change = changes[entity.id];
    if (!change) return entity;
    // Only known values: anything else in storage is ignored.
    const status = ENTITY_STATUSES.includes(change.status as EntityStatus) ? change.status : undefined;
    const risk = RISK_LEVELS.includes(change.risk as RiskLevel) ? change.risk : undefined;
    return { ...entity, status: status ?? entity.status, risk: risk ?? entity.risk };
  });
}
