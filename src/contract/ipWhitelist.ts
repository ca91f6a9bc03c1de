import { z } from 'zod';
import { isoDateTime } from './common';

export const ipWhitelistEntrySchema = z.object({
  id: z.number().int(),
  /** IPv4 or IPv6 address, optionally with a CIDR suffix. */
  address: z.string(),
  created_at: isoDateTime,
});
export type IpWhitelistEntry = z.infer<typeof ipWhitelistEntrySchema>;
