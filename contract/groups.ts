import { z } from 'zod';
import { lineText, permissionSchema } from './common';

const groupName = lineText.trim().min(1).max(100);

/** POST /api/v2/group */
export const groupCreateBodySchema = z.strictObject({
  name: groupName,
  permissions: z.array(permissionSchema).max(20).default([]),
});
export type GroupCreateBody = z.input<typeof groupCreateBodySchema>;

/** PATCH /api/v2/group/{id} */
export const groupUpdateBodySchema = z.strictObject({
  name: groupName.optional(),
  permissions: z.array(permissionSchema).max(20).optional(),
});
export type GroupUpdateBody = z.infer<typeof groupUpdateBodySchema>;
