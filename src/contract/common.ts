import { z } from 'zod';

/** Every error body of the server (SPEC §8). */
export const errorSchema = z.object({ detail: z.string() });
export type ApiErrorBody = z.infer<typeof errorSchema>;

export const PERMISSIONS = [
  'view_calls_page',
  'view_profiles_page',
  'view_settings_page',
  'view_admin_page',
  'view_dashboard_page',
  'view_reports_page',
  'view_company_page',
] as const;
export const permissionSchema = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof permissionSchema>;

export const ROLES = ['Admin', 'User', 'Restricted User'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Page permissions each role carries (SPEC §6, shared decision). */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  Admin: PERMISSIONS,
  User: [
    'view_calls_page',
    'view_profiles_page',
    'view_settings_page',
    'view_dashboard_page',
    'view_reports_page',
  ],
  'Restricted User': ['view_profiles_page', 'view_settings_page'],
};

/** Services of a company config (SPEC §2, profile tabs). */
export const SERVICES = [
  'verification',
  'ai_agent',
  'aml',
  'video_kyc',
  'transactions',
  'questionnaire',
  'biopay',
] as const;
export const serviceSchema = z.enum(SERVICES);
export type Service = z.infer<typeof serviceSchema>;

export const PROFILE_STATUSES = [
  'Created',
  'Incomplete',
  'Pending Upload',
  'Pending Review',
  'Pending Approval',
  'Temporarily Approved',
  'Temp. Approval Expired',
  'Approved',
  'Rejected',
  'Blacklisted',
  'Inactive',
] as const;
export const profileStatusSchema = z.enum(PROFILE_STATUSES);
export type ProfileStatus = z.infer<typeof profileStatusSchema>;

/** Highest first (spec-readings.md). */
export const RISK_LEVELS = ['Very High', 'High', 'Normal', 'Mid', 'Low', 'Unknown'] as const;
export const riskLevelSchema = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof riskLevelSchema>;

/** Document classes in sort order (SPEC §3). */
export const DOCUMENT_CLASSES = ['ID', 'DL', 'SE', 'PA', 'VA', 'UB', 'IB', 'SG', 'CO', 'OT', 'XX'] as const;
export const documentClassSchema = z.enum(DOCUMENT_CLASSES);
export type DocumentClass = z.infer<typeof documentClassSchema>;

/** Call status codes are the positions in this list (spec-readings.md). */
export const CALL_STATUSES = [
  'WAITING',
  'TALKING',
  'MISSED',
  'COMPLETE',
  'INCOMPLETE',
  'ESCALATED',
  'BAD QUALITY',
  'CONNECTION ERROR',
  'DISCONNECTED',
  'SUSPICIOUS',
] as const;
export type CallStatusName = (typeof CALL_STATUSES)[number];
export const callStatusCodeSchema = z
  .number()
  .int()
  .min(0)
  .max(CALL_STATUSES.length - 1);

export const AGENT_STATUSES = ['Online', 'Offline', 'Break', 'Meeting', 'Education'] as const;
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

/** Path parameter `{id}`: a positive integer. */
export const idParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** A query flag written as true/false. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const isoDateTime = z.string().describe('ISO 8601 date-time');
export const isoDate = z.string().describe('ISO 8601 date (YYYY-MM-DD)');
