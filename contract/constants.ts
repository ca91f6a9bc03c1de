/**
 * Constants of the contract without zod, so the studio can use them without loading zod (the schemas in
 * common.ts are built from them).
 */
export const PERMISSIONS = [
  'view_calls_page',
  'view_profiles_page',
  'view_settings_page',
  'view_admin_page',
  'view_dashboard_page',
  'view_reports_page',
  'view_company_page',
  /** Close any call of the company with a status and a reason (issue 25); Admins have it. */
  'manage_calls',
  /** Work the reviewers' desk: take, be assigned and decide review cases (issue 30). */
  'review_profiles',
  /** Confirm or return another reviewer's decision under the four-eyes rules (issue 30); Admins have it. */
  'second_review',
  /**
   * Download a call's signed evidence package, the whole dossier at once; Admins have it, others through a
   * group (docs/decisions/0198-rate-limits-and-evidence-roles.md).
   */
  'download_evidence',
] as const;

export const ROLES = ['Admin', 'User', 'Restricted User'] as const;

export type Permission = (typeof PERMISSIONS)[number];
export type Role = (typeof ROLES)[number];

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

/**
 * The screen `/` opens for a user (issue 30): the customers list, or the reviewers' desk. 'review' takes effect
 * only while the user may open /review (review_profiles); otherwise the studio falls back to the customers list.
 * Here, without zod, because the studio's entry reads it from stored accounts (zod would load with the entry).
 */
export const START_PAGES = ['customers', 'review'] as const;
export type StartPage = (typeof START_PAGES)[number];

/** A stored start page as read back (a database row, a stored account): anything unknown is the customers list. */
export const startPageOf = (value: unknown): StartPage =>
  START_PAGES.find((page) => page === value) ?? 'customers';

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

/** Highest first (spec-readings.md). */
export const RISK_LEVELS = ['Very High', 'High', 'Normal', 'Mid', 'Low', 'Unknown'] as const;

/** Document classes in sort order (SPEC §3). */
export const DOCUMENT_CLASSES = ['ID', 'DL', 'SE', 'PA', 'VA', 'UB', 'IB', 'SG', 'CO', 'OT', 'XX'] as const;

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

/** Codes an agent may end a call with (§4: an agent must set a call status at the end): COMPLETE onwards. */
export const FIRST_FINAL_CALL_STATUS = 3;
/** The final status codes, in order: what a call may end, be closed or be corrected with. */
export const FINAL_CALL_STATUSES = CALL_STATUSES.map((_, code) => code).filter(
  (code) => code >= FIRST_FINAL_CALL_STATUS,
);
export const CALL_STATUS_WAITING = 0;
export const CALL_STATUS_TALKING = 1;
export const CALL_STATUS_MISSED = 2;
/** The passing status: on a guided call it needs every mandatory step passed (issue 29). */
export const CALL_STATUS_COMPLETE = 3;
/** The status the server closes a call with when its agent (or both sides) are gone for good (issue 25). */
export const CALL_STATUS_DISCONNECTED = 8;

/**
 * Why a call was closed when its agent did not set the status (video_calls.end_reason, issue 25):
 * the agent's studio was gone past CALL_AGENT_GRACE_MS (the customer still there), both sides were gone, the
 * call was left talking by an earlier run of the server, or an admin closed it (with a reason of their own).
 */
export const CALL_END_REASONS = ['agent_left', 'both_left', 'server_restart', 'closed_by_admin'] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];

/** Refusals of the call desk and of the call status routes (issue 25). */
export const CALL_CLOSED = 'The call is already closed';
export const MAY_NOT_TAKE_CALLS = 'You may not take calls';

/**
 * Staff who may take calls (go Online, answer, join a call's room, hear `call.incoming`): the calls page, and
 * neither an API user nor a Restricted User (issue 25).
 */
export const mayTakeCalls = (user: { role: string; permissions: readonly string[]; isApiUser: boolean }) =>
  !user.isApiUser && user.role !== 'Restricted User' && user.permissions.includes('view_calls_page');

/** Largest call recording the server takes (§5), and its message (§8). */
export const MAX_RECORDING_BYTES = 300 * 1024 * 1024;
export const RECORDING_TOO_LARGE = 'Size must be less than 300MB';
/** 409 of PATCH /videocall/{id}: a stored recording is evidence and is never replaced (issue 25). */
export const RECORDING_EXISTS = 'The call already has a recording';
/** 413 of an upload past the company's storage quota (COMPANY_STORAGE_QUOTA_GB). */
export const STORAGE_QUOTA_EXCEEDED = "Your company's storage quota is used up";
/** 429 of an upload: too many by one user in a minute, or at once. */
/** 429 of POST /videocall: too many calls from one join link or one address in an hour. */
export const CALLS_TOO_FAST = 'Too many calls, try again later';
/**
 * 409 of POST /videocall: the join link has started every call it may (one, and the company's retries after a
 * technical abort; docs/decisions/0197-links-bound-to-their-call.md). The customer page shows its own words.
 */
export const JOIN_LINK_USED = 'This link was already used for a video call. Ask for a new link.';
export const UPLOADS_TOO_FAST = 'Too many uploads, try again later';
export const UPLOADS_AT_ONCE = 'Too many uploads at once, wait for one to finish';

export const AGENT_STATUSES = ['Online', 'Offline', 'Break', 'Meeting', 'Education'] as const;
export type AgentStatusName = (typeof AGENT_STATUSES)[number];

export type ProfileStatus = (typeof PROFILE_STATUSES)[number];
export type RiskLevel = (typeof RISK_LEVELS)[number];
export type Service = (typeof SERVICES)[number];
export const isService = (name: string): name is Service => (SERVICES as readonly string[]).includes(name);

/** Statuses that need a reason of at least REJECT_REASON_MIN characters (SPEC §4, §5). */
export const STATUSES_NEEDING_REASON = [
  'Rejected',
  'Blacklisted',
] as const satisfies readonly ProfileStatus[];
export const REJECT_REASON_MIN = 10;
/** A reason (reject, blacklist, alert override) has at least REJECT_REASON_MIN characters after trimming. */
export const reasonIsLongEnough = (reason: string | null | undefined) =>
  (reason ?? '').trim().length >= REJECT_REASON_MIN;

/** A quick add's id card number: `qa_` and 10 to 20 letters and digits (SPEC §7, §9). */
export const QUICK_ADD_ID_PATTERN = /^qa_[A-Za-z0-9]{10,20}$/;

/** Extracted content fields of a document (SPEC §3). */
export const CONTENT_FIELDS = [
  'IDNumber',
  'FirstName',
  'LastName',
  'BirthDate',
  'ExpiryDate',
  'DocumentNumber',
  'IssueDate',
  'IssuePlace',
  'BirthPlace',
] as const;

/** The checks of a document (SPEC §3). */
export const CHECK_KINDS = ['document', 'fraud', 'biometric', 'cross'] as const;

/**
 * A guided call's customer entries (issue 29): serial-number entries and code sends a call allows (the code's
 * wrong tries are the procedure step's `max_tries`), and the longest serial number. Here, not in
 * identProcedure.ts, so that the join page checks them without loading zod.
 */
export const CALL_GUIDE_LIMITS = { serialTries: 3, codeSends: 3, serialLength: 40 } as const;
