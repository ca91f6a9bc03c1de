import { z } from 'zod';
import { errorSchema, idText } from '#contract/common';

/** Error replies every authenticated route may give. */
export const authErrors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

export const profileSubParams = z.strictObject({ id: idText });
