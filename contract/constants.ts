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
  /** Close any call of the company with a status and a reason; Admins have it. */
  'manage_calls',
  /** Work the reviewers' desk: take, be assigned and decide review cases. */
  'review_profiles',
  /** Confirm or return another reviewer's decision under the four-eyes rules; Admins have it. */
  'second_review',
  /**
   * Download a call's signed evidence package, the whole dossier at once; Admins have it, others through a
   * group (docs/decisions/0198-rate-limits-and-evidence-roles.md).
   */
  'download_evidence',
  /**
   * Watch the company's live calls receive-only and whisper to their agent; Admins have it, others through a
   * group (docs/decisions/0208-supervisors-watch-calls.md).
   */
  'monitor_calls',
] as const;

export const ROLES = ['Admin', 'User', 'Restricted User'] as const;

export type Permission = (typeof PERMISSIONS)[number];
export type Role = (typeof ROLES)[number];

/** Page permissions each role carries (docs/product/roles.md#role-permissions). */
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
 * The screen `/` opens for a user: the customers list, or the reviewers' desk. 'review' takes effect
 * only while the user may open /review (review_profiles); otherwise the studio falls back to the customers list.
 * Here, without zod, because the studio's entry reads it from stored accounts (zod would load with the entry).
 */
export const START_PAGES = ['customers', 'review'] as const;
export type StartPage = (typeof START_PAGES)[number];

/** A stored start page as read back (a database row, a stored account): anything unknown is the customers list. */
export const startPageOf = (value: unknown): StartPage =>
  START_PAGES.find((page) => page === value) ?? 'customers';

/** Services of a company config (docs/product/screens.md#profile-screen). */
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

/** Highest first (docs/product/states.md#risk-levels). */
export const RISK_LEVELS = ['Very High', 'High', 'Normal', 'Mid', 'Low', 'Unknown'] as const;

/** Document classes in sort order (docs/product/entities.md). */
export const DOCUMENT_CLASSES = ['ID', 'DL', 'SE', 'PA', 'VA', 'UB', 'IB', 'SG', 'CO', 'OT', 'XX'] as const;

/** Call status codes are the positions in this list (docs/product/states.md#call-statuses). */
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

/** Codes an agent may end a call with (an agent must set a call status at the end): COMPLETE onwards. */
export const FIRST_FINAL_CALL_STATUS = 3;
/** The final status codes, in order: what a call may end, be closed or be corrected with. */
export const FINAL_CALL_STATUSES = CALL_STATUSES.map((_, code) => code).filter(
  (code) => code >= FIRST_FINAL_CALL_STATUS,
);
/** Whether `status` is one of FINAL_CALL_STATUSES. */
export const isFinalCallStatus = (status: number): boolean => FINAL_CALL_STATUSES.includes(status);
export const CALL_STATUS_WAITING = 0;
export const CALL_STATUS_TALKING = 1;
export const CALL_STATUS_MISSED = 2;
/** The passing status: on a guided call it needs every mandatory step passed. */
export const CALL_STATUS_COMPLETE = 3;
/** The status the server closes a call with when its agent (or both sides) are gone for good. */
export const CALL_STATUS_DISCONNECTED = 8;

/**
 * Why a call was closed when its agent did not set the status (video_calls.end_reason):
 * the agent's studio was gone past CALL_AGENT_GRACE_MS (the customer still there), both sides were gone, the
 * call was left talking by an earlier run of the server, or an admin closed it (with a reason of their own).
 */
export const CALL_END_REASONS = ['agent_left', 'both_left', 'server_restart', 'closed_by_admin'] as const;
export type CallEndReason = (typeof CALL_END_REASONS)[number];

/** Refusals of the call desk and of the call status routes. */
export const CALL_CLOSED = 'The call is already closed';
export const MAY_NOT_TAKE_CALLS = 'You may not take calls';

/**
 * Staff who may take calls (go Online, answer, join a call's room, hear `call.incoming`): the calls page, and
 * neither an API user nor a Restricted User.
 */
export const mayTakeCalls = (user: { role: string; permissions: readonly string[]; isApiUser: boolean }) =>
  !user.isApiUser && user.role !== 'Restricted User' && user.permissions.includes('view_calls_page');

/**
 * Who may watch calls: staff with `monitor_calls`, never an API user or a Restricted User (even one given the
 * permission through a group): watching is a person's work at a screen.
 */
export const mayMonitorCalls = (user: { role: string; permissions: readonly string[]; isApiUser: boolean }) =>
  !user.isApiUser && user.role !== 'Restricted User' && user.permissions.includes('monitor_calls');

/** Largest call recording the server takes (docs/product/validation.md), and its message (docs/product/errors.md). */
export const MAX_RECORDING_BYTES = 300 * 1024 * 1024;
export const RECORDING_TOO_LARGE = 'Size must be less than 300MB';
/** 409 of PATCH /videocall/{id}: a stored recording is evidence and is never replaced. */
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

/** Statuses that need a reason of at least REJECT_REASON_MIN characters (docs/product/states.md, docs/product/validation.md). */
export const STATUSES_NEEDING_REASON = [
  'Rejected',
  'Blacklisted',
] as const satisfies readonly ProfileStatus[];
export const REJECT_REASON_MIN = 10;
/** A reason (reject, blacklist, alert override) has at least REJECT_REASON_MIN characters after trimming. */
export const reasonIsLongEnough = (reason: string | null | undefined) =>
  (reason ?? '').trim().length >= REJECT_REASON_MIN;

/** A quick add's id card number: `qa_` and 10 to 20 letters and digits (docs/product/api.md, docs/product/constants.md). */
export const QUICK_ADD_ID_PATTERN = /^qa_[A-Za-z0-9]{10,20}$/;

/**
 * A stable code a company chooses and the server stores (an abort or decision reason of a guided call, a step
 * detail's name): 1 to 40 lower-case letters, digits or underscores, so it reads the same in every language.
 */
export const REASON_ID_PATTERN = /^[a-z0-9_]{1,40}$/;
export const REASON_ID_HINT = 'Use 1 to 40 lower-case letters, digits or underscores';

/** Extracted content fields of a document (docs/product/entities.md). */
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

/** The checks of a document (docs/product/entities.md). */
export const CHECK_KINDS = ['document', 'fraud', 'biometric', 'cross'] as const;

/**
 * A guided call's customer entries: serial-number entries and code sends a call allows (the code's
 * wrong tries are the procedure step's `max_tries`), and the longest serial number. Here, not in
 * identProcedure.ts, so that the join page checks them without loading zod.
 */
export const CALL_GUIDE_LIMITS = { serialTries: 3, codeSends: 3, serialLength: 40 } as const;
