import { z } from 'zod';
import { isoDateTime, lineText } from './common';
import { MAX_ALLOWLIST_LABEL } from './ipRanges';

export const ipAllowListEntrySchema = z.object({
  id: z.number().int(),
  /** IPv4 or IPv6 address, optionally with a CIDR suffix (normalised: `10.0.0.0/8`, `2001:db8::1`). */
  address: z.string(),
  /** What the admin called it ("Head office"), or null. */
  label: z.string().nullable(),
  /** The user who added it (null: removed since, or added by the operator's command line). */
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  created_at: isoDateTime,
});
export type IpAllowListEntry = z.infer<typeof ipAllowListEntrySchema>;

/** `confirm_lockout`: the admin confirmed a change that leaves their own address outside the list. */
const confirmLockout = z
  .boolean()
  .optional()
  .describe("true: apply the change even though the caller's own address would be outside the list");

export const ipAllowListBodySchema = z.object({
  address: lineText
    .max(200)
    .describe('IPv4 or IPv6 address, or a CIDR range written with its network address (10.0.0.0/8)'),
  label: lineText.max(MAX_ALLOWLIST_LABEL).nullish(),
  confirm_lockout: confirmLockout,
});
export type IpAllowListBody = z.input<typeof ipAllowListBodySchema>;

/** DELETE takes the confirmation as a query flag (`?confirm_lockout=true`); a JSON body is accepted too. */
export const ipAllowListDeleteQuerySchema = z.object({
  confirm_lockout: z
    .enum(['true', 'false'])
    .optional()
    .describe("true: delete even though the caller's own address would be outside the list"),
});
export const ipAllowListDeleteBodySchema = z.object({ confirm_lockout: confirmLockout }).nullish();

/** The 409 of the lock-out guard: the detail and the caller's address it names. */
export const ipAllowListLockoutSchema = z.object({ detail: z.string(), address: z.string() });

/** GET /ip-whitelist/me: the address the server sees for the caller, and whether the list lets it in. */
export const ipAllowListMeSchema = z.object({ address: z.string(), allowed: z.boolean() });
export type IpAllowListMe = z.infer<typeof ipAllowListMeSchema>;
