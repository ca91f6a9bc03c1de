import { z } from 'zod';
import { isoDateTime, permissionSchema, serviceSchema } from './common';

export const companyConfigSchema = z.object({
  /** AML is on only when this names a provider (docs/product/roles.md). */
  aml_provider: z.string().nullable(),
  active_services: z.array(serviceSchema),
});
export type CompanyConfig = z.infer<typeof companyConfigSchema>;

export const companySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  region: z.string(),
  config: companyConfigSchema,
  industry: z.string().nullable(),
  package: z.number().int().nullable(),
  payment_status: z.string(),
  created_at: isoDateTime,
});
export type Company = z.infer<typeof companySchema>;

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(permissionSchema),
});
export type Group = z.infer<typeof groupSchema>;
