import { z } from 'zod';
import { pageSchema, pagingQuery, permissionSchema, roleSchema, searchText } from './common';

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
});
export type User = z.infer<typeof userSchema>;

export const userListQuerySchema = z.strictObject({
  ...pagingQuery,
  search: searchText.optional(),
  role: roleSchema.optional(),
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
  base32_secret: z.string().trim().min(1).max(128),
  code: z.string().trim().min(1).max(16),
  password: z.string().min(1).max(256),
});
export type OtpVerifyBody = z.infer<typeof otpVerifyBodySchema>;

/** POST /api/v2/user/{id}/photo: `photo` a data URL (or base64) of a JPEG or PNG ≤ 5 MB; answers the user. */
export const userPhotoBodySchema = z.strictObject({
  id: z.number().int().optional(),
  password: z.string().min(1).max(256),
  photo: z.string().min(1).max(7_000_000),
});
export type UserPhotoBody = z.infer<typeof userPhotoBodySchema>;
