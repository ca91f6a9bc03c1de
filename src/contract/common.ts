import { z } from 'zod';
import {
  AGENT_STATUSES,
  CALL_STATUSES,
  DOCUMENT_CLASSES,
  PERMISSIONS,
  PROFILE_STATUSES,
  RISK_LEVELS,
  ROLES,
  SERVICES,
} from './constants';

export * from './constants';

/** Every error body of the server (SPEC §8). */
export const errorSchema = z.object({ detail: z.string() });
export type ApiErrorBody = z.infer<typeof errorSchema>;

export const permissionSchema = z.enum(PERMISSIONS);

export const roleSchema = z.enum(ROLES);

export const serviceSchema = z.enum(SERVICES);

export const profileStatusSchema = z.enum(PROFILE_STATUSES);

export const riskLevelSchema = z.enum(RISK_LEVELS);

export const documentClassSchema = z.enum(DOCUMENT_CLASSES);
export type DocumentClass = z.infer<typeof documentClassSchema>;

export type CallStatusName = (typeof CALL_STATUSES)[number];
export const callStatusCodeSchema = z
  .number()
  .int()
  .min(0)
  .max(CALL_STATUSES.length - 1);

export const agentStatusSchema = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof agentStatusSchema>;

/** Django REST style page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** limit/offset query of paged lists. */
export const pagingQuery = {
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).default(0),
};

/** The largest id a PostgreSQL integer column holds. */
export const MAX_ID = 2_147_483_647;

/** Path parameter `{id}`: a positive integer that fits the id columns. */
export const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(MAX_ID) });

/** Free text of a query (search): trimmed, at most 200 characters, no NUL (PostgreSQL text cannot hold it). */
export const searchText = z
  .string()
  .trim()
  .max(200)
  .refine((value) => !value.includes('\u0000'), 'Search text cannot contain NUL characters');

/** A query flag written as true/false. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const isoDateTime = z.string().describe('ISO 8601 date-time');
export const isoDate = z.string().describe('ISO 8601 date (YYYY-MM-DD)');
