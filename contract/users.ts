import { z } from 'zod';
import { AGENT_LANGUAGES } from './callRouting';
import {
  idSchema,
  lineText,
  pageSchema,
  pagingQuery,
  permissionSchema,
  roleSchema,
  searchText,
} from './common';
import { START_PAGES } from './constants';
import { mailLanguageSchema } from './mail';

/** The screen `/` opens for a user (START_PAGES). */
export const startPageSchema = z.enum(START_PAGES);

export const userGroupRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** GET /api/v2/user/{id}: field names are part of the contract. */
export const userSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  /** The e-mail address. */
  username: z.string(),
  phone: z.string().nullable(),
  /** Address of the auth photo, or null. */
  photo: z.string().nullable(),
  groups: z.array(userGroupRefSchema),
  is_superuser: z.boolean(),
  is_staff: z.boolean(),
  mfa: z.boolean(),
  /** Company id. */
  company: z.number().int(),
  permissions: z.array(permissionSchema),
  role: roleSchema,
  is_active: z.boolean(),
  /** Last successful sign-in (ISO date-time) or null. */
  last_login: z.string().nullable(),
  /** The next sign-in answers `Password Reset Required`. */
  force_password_reset: z.boolean(),
  /** The next sign-in answers `Two Factor Reset Required`. */
  force_mfa_reset: z.boolean(),
  /** The languages the user speaks with customers (AGENT_LANGUAGES): one-at-a-time routing prefers them. */
  languages: z.array(z.enum(AGENT_LANGUAGES)),
  /** The screen `/` opens (START_PAGES); the user sets their own, an Admin anyone's in the company. */
  start_page: startPageSchema,
  /** The language of the user's e-mail (en, tr); null: the company's (docs/decisions/0161-mail-templates.md). */
  mail_language: mailLanguageSchema.nullable(),
});
export type User = z.infer<typeof userSchema>;

export const USER_ORDERINGS = ['id', 'name', 'username', 'role', 'last_login'] as const;

export const userListQuerySchema = z.strictObject({
  ...pagingQuery,
  search: searchText.optional(),
  role: roleSchema.optional(),
  is_active: z.enum(['true', 'false']).optional(),
  /** One of USER_ORDERINGS, `-` first for descending; default `id`. */
  ordering: z.enum([...USER_ORDERINGS, ...USER_ORDERINGS.map((o) => `-${o}` as const)]).optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;
export const userPageSchema = pageSchema(userSchema);

/** POST /api/v2/user/{id}/otp_reset: `disable: false` → a new pending secret; `true` → two-factor off. */
export const otpResetBodySchema = z.strictObject({
  password: z.string().min(1).max(256),
  disable: z.boolean(),
});
export type OtpResetBody = z.infer<typeof otpResetBodySchema>;
export const otpResetResponseSchema = z.object({ base32_secret: z.string().nullable() });
export type OtpResetResponse = z.infer<typeof otpResetResponseSchema>;

/** POST /api/v2/user/{id}/otp_verify: answers the user (mfa true). */
export const otpVerifyBodySchema = z.strictObject({
  base32_secret: lineText.trim().min(1).max(128),
  code: lineText.trim().min(1).max(16),
  password: z.string().min(1).max(256),
});
export type OtpVerifyBody = z.infer<typeof otpVerifyBodySchema>;

/** POST /api/v2/user/{id}/photo: `photo` a data URL (or base64) of a JPEG or PNG ≤ 5 MB; answers the user. */
export const userPhotoBodySchema = z.strictObject({
  id: idSchema.optional(),
  password: z.string().min(1).max(256),
  photo: z.string().min(1).max(7_000_000),
});
export type UserPhotoBody = z.infer<typeof userPhotoBodySchema>;

// ---------------------------------------------------------------- administration

/** The caller's own password, confirmed by every administrative change (the password prompt). */
const ownPassword = z.string().min(1).max(256);
const name = lineText.trim().min(1).max(150);
/** Checked on the server against the e-mail pattern with its message (`This is not a valid e-mail address.`). */
const email = lineText.trim().max(254);
const phone = lineText
  .trim()
  .max(32)
  .nullable()
  .transform((v) => (v === '' ? null : v));
const groupIds = z.array(idSchema).max(50);
/** Each of AGENT_LANGUAGES at most once. */
const languages = z
  .array(z.enum(AGENT_LANGUAGES))
  .max(AGENT_LANGUAGES.length)
  .refine((list) => new Set(list).size === list.length, 'Name each language once');

/** POST /api/v2/user: invites a user (an e-mail with a link to set their own password). */
export const userCreateBodySchema = z.strictObject({
  password: ownPassword,
  first_name: name,
  last_name: name,
  username: email,
  phone: phone.optional(),
  role: roleSchema,
  groups: groupIds.default([]),
  languages: languages.default([]),
});
export type UserCreateBody = z.input<typeof userCreateBodySchema>;

/**
 * PATCH /api/v2/user/{id}: edited fields, `is_active`, or a forced two-factor setup (`force_mfa_setup`) or
 * reset (`reset_mfa`, also clears the secret), or the start page (`start_page`). `password` (the caller's
 * own) is needed for everything but a user's own name, phone and start page.
 */
export const userUpdateBodySchema = z.strictObject({
  password: ownPassword.optional(),
  first_name: name.optional(),
  last_name: name.optional(),
  username: email.optional(),
  phone: phone.optional(),
  role: roleSchema.optional(),
  groups: groupIds.optional(),
  is_active: z.boolean().optional(),
  force_mfa_setup: z.literal(true).optional(),
  reset_mfa: z.literal(true).optional(),
  languages: languages.optional(),
  start_page: startPageSchema.optional(),
  mail_language: mailLanguageSchema.nullable().optional(),
});
export type UserUpdateBody = z.input<typeof userUpdateBodySchema>;

/**
 * POST /api/v2/user/{id}/reset_password: the user's next sign-in answers `Password Reset Required`.
 * `password` is the admin's own; `email`, when sent, must be the user's (a company action with id and data).
 */
export const userResetPasswordBodySchema = z.strictObject({
  password: ownPassword,
  email: lineText.trim().max(254).optional(),
});
export type UserResetPasswordBody = z.infer<typeof userResetPasswordBodySchema>;

/** POST /api/v2/user/{id}/change_password: the user's own password, with the current one. */
export const changePasswordBodySchema = z.strictObject({
  password: ownPassword,
  new_password: lineText.min(1).max(256),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;
