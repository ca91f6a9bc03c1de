import { z } from 'zod';
import { pageSchema, pagingQuery, permissionSchema, roleSchema } from './common';

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
  search: z.string().trim().max(200).optional(),
  role: roleSchema.optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;
export const userPageSchema = pageSchema(userSchema);
