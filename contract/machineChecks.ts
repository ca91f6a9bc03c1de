/**
 * The machine checks beside the agent in a guided call: a face match between the face screenshot and the ID's
 * portrait, the document's machine-readable zone (MRZ) read by OCR and validated, and the data read compared with
 * the profile. Hints, never decisions: the agent passes or fails every step.
 */
import { z } from 'zod';
import { isoDateTime } from './common';

export const MACHINE_CHECK_KINDS = ['face_match', 'mrz'] as const;
export type MachineCheckKind = (typeof MACHINE_CHECK_KINDS)[number];

/** How a compared field came out: the same, not the same, or nothing to compare (not read, not on file). */
export const AGREEMENTS = ['agrees', 'differs', 'not_read'] as const;
export type Agreement = (typeof AGREEMENTS)[number];

/** The fields compared with the profile, in the order the agent sees them. */
export const CROSS_CHECK_FIELDS = [
  'last_name',
  'first_names',
  'birth_date',
  'nationality',
  'document_number',
  'typed_serial',
] as const;
export type CrossCheckField = (typeof CROSS_CHECK_FIELDS)[number];

export const mrzReadingSchema = z.object({
  format: z.enum(['TD1', 'TD3']),
  lines: z.array(z.string()).describe('The zone as read, ambiguous characters corrected'),
  fields: z.object({
    document_code: z.string().nullable(),
    issuing_state: z.string().nullable(),
    document_number: z.string().nullable(),
    last_name: z.string().nullable(),
    first_names: z.string().nullable(),
    nationality: z.string().nullable(),
    birth_date: z.string().nullable().describe('ISO date'),
    sex: z.enum(['M', 'F']).nullable(),
    expiry_date: z.string().nullable().describe('ISO date'),
    optional_data: z
      .string()
      .nullable()
      .describe('TD1 optional data 1 or TD3 personal number (a national ID number on many cards)'),
  }),
  check_digits: z.object({
    document_number: z.boolean(),
    birth_date: z.boolean(),
    expiry_date: z.boolean(),
    composite: z.boolean(),
  }),
  check_digits_hold: z.boolean(),
  corrected: z
    .array(z.string())
    .describe('Look-alike characters read again so that a check digit holds (the zero read as O)'),
  expired: z.boolean().nullable().describe('null: the expiry date could not be read'),
});
export type MrzReading = z.infer<typeof mrzReadingSchema>;

export const crossCheckSchema = z.object({
  field: z.enum(CROSS_CHECK_FIELDS),
  result: z.enum(AGREEMENTS),
  read: z.string().nullable().describe('What the document says'),
  on_file: z.string().nullable().describe('What the profile (or the customer) says'),
});
export type CrossCheck = z.infer<typeof crossCheckSchema>;

/** The engine that produced a result, with its version, so the evidence says what judged. */
export const checkEngineSchema = z.object({ name: z.string(), version: z.string() });
export type CheckEngine = z.infer<typeof checkEngineSchema>;

export const faceMatchResultSchema = z.object({
  outcome: z.enum(['likely_same', 'differ', 'no_face_on_id', 'no_face_on_screenshot', 'unavailable']),
  similarity: z.number().nullable(),
  threshold: z.number(),
});
export type FaceMatchResult = z.infer<typeof faceMatchResultSchema>;

export const mrzResultSchema = z.object({
  outcome: z.enum(['read', 'not_found', 'unavailable']),
  reading: mrzReadingSchema.nullable(),
  ocr_confidence: z.number().nullable().describe('The OCR engine’s mean confidence for the zone, 0–100'),
  cross_checks: z.array(crossCheckSchema),
});
export type MrzResult = z.infer<typeof mrzResultSchema>;

const checkBase = {
  id: z.number().int(),
  call: z.number().int(),
  screenshots: z.array(z.number().int()).describe('The screenshots the check looked at'),
  status: z.enum(['running', 'done', 'failed']),
  engine: checkEngineSchema,
  created_at: isoDateTime,
  finished_at: isoDateTime.nullable(),
  duration_ms: z.number().int().nullable(),
};

export const machineCheckSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('face_match'), ...checkBase, result: faceMatchResultSchema.nullable() }),
  z.object({ kind: z.literal('mrz'), ...checkBase, result: mrzResultSchema.nullable() }),
]);
export type MachineCheck = z.infer<typeof machineCheckSchema>;

/** A pass of the face step against a "faces differ" hint needs the agent's reason (400 otherwise). */
export const MACHINE_CHECK_DETAILS = {
  reasonNeeded:
    'The face match says the faces differ: give a reason (details.override_reason) to pass the face step',
} as const;
