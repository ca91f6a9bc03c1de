import { z } from 'zod';
import { documentClassSchema } from './common';

export const countrySchema = z.object({ code: z.string(), name: z.string(), name_tr: z.string() });
export type Country = z.infer<typeof countrySchema>;

export const documentTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  document_class: documentClassSchema,
  country: z.string().nullable(),
  sort_order: z.number().int(),
});
export type DocumentType = z.infer<typeof documentTypeSchema>;
