import { z } from 'zod';

export const regionSchema = z.object({ name: z.string(), server: z.string() });
export type Region = z.infer<typeof regionSchema>;

export const regionsResponseSchema = z.array(regionSchema);

/** POST /api/v1/login/ */
export const loginBodySchema = z.strictObject({
  username: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(256),
  otp: z.string().trim().max(16).optional().nullable(),
  /** A face photo (data URL or base64); stored nowhere by the reference server, checked for presence only. */
  photo: z.string().max(5_000_000).optional().nullable(),
  /** The region server chosen when the first answer listed several regions. */
  server: z.string().max(500).optional().nullable(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** The user exists in several regions and no server was sent: choose one, then log in again with `server`. */
export const loginRegionChoiceSchema = z.object({ regions: z.array(regionSchema) });
export const loginSuccessSchema = z.object({
  access: z.string(),
  company_id: z.number().int(),
  server: z.string(),
  regions: z.array(regionSchema),
});
export const loginResponseSchema = z.union([loginSuccessSchema, loginRegionChoiceSchema]);
export type LoginSuccess = z.infer<typeof loginSuccessSchema>;
export type LoginRegionChoice = z.infer<typeof loginRegionChoiceSchema>;
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Claims of the access token, readable without verifying (the studio decodes them). */
export const accessTokenClaimsSchema = z.object({
  user_id: z.number().int(),
  company_id: z.number().int(),
  email: z.string(),
  is_api_user: z.boolean(),
  exp: z.number(),
});
export type AccessTokenClaims = z.infer<typeof accessTokenClaimsSchema>;

/** POST /api/v2/user/socket_token */
export const socketTokenBodySchema = z.strictObject({ studio: z.literal(true) });
export const socketTokenResponseSchema = z.object({ token: z.string() });
