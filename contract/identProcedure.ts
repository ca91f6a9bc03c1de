/**
 * The identification procedure of a company: the ordered steps an agent goes through in a
 * video identification, after BaFin Circular 3/2017, each mandatory or optional, with the settings of its kind;
 * the consent text the customer agrees to; the reasons an agent may abort a call with or give with the decision.
 * And the results of those steps in a call (`video_call_steps`, point 2), each with its offset in the recording.
 */
import { z } from 'zod';
import { isoDateTime, lineText, MAX_ID, multilineText } from './common';
import { CALL_GUIDE_LIMITS, REASON_ID_HINT, REASON_ID_PATTERN } from './constants';
import { DAY_MS } from './time';

export { CALL_GUIDE_LIMITS };

/** The kinds of step, in the order of the default template. */
export const STEP_KINDS = [
  'consent',
  'face_screenshot',
  'id_front',
  'id_back',
  'security_features',
  'serial_number',
  'second_channel_code',
  'questions',
  'decision',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The 4 categories of security features of an ID (BaFin 3/2017: at least 3 are checked). */
export const SECURITY_FEATURE_CATEGORIES = [
  'holograms_kinegrams',
  'personalisation_technique',
  'material',
  'security_printing',
] as const;

export const CODE_CHANNELS = ['email', 'sms'] as const;

/** Bounds of the procedure's lists and texts. */
export const PROCEDURE_LIMITS = {
  questionText: 200,
  questions: 200,
  questionsDrawn: 20,
  reasonLabel: 100,
  reasons: 30,
  consentText: 4000,
  maxTries: 10,
} as const;

/** A step's result, and the longest offset into a recording it may name (24 hours). */
export const STEP_RESULTS = ['passed', 'failed', 'skipped'] as const;
export const MAX_STEP_OFFSET_MS = DAY_MS;

const mandatory = z.boolean().describe('true: a passing decision needs this step passed');

const plainStep = <K extends StepKind>(kind: K) => z.strictObject({ kind: z.literal(kind), mandatory });

export const procedureQuestionSchema = z.strictObject({
  text: lineText.trim().min(1).max(PROCEDURE_LIMITS.questionText).describe('The question in English'),
  text_tr: lineText
    .trim()
    .min(1)
    .max(PROCEDURE_LIMITS.questionText)
    .nullish()
    .describe('The question in Turkish (absent: the English text is asked)'),
});
export type ProcedureQuestion = z.infer<typeof procedureQuestionSchema>;

export const procedureStepSchema = z.discriminatedUnion('kind', [
  plainStep('consent'),
  plainStep('face_screenshot'),
  plainStep('id_front'),
  plainStep('id_back'),
  z.strictObject({
    kind: z.literal('security_features'),
    mandatory,
    min_categories: z
      .number()
      .int()
      .min(1)
      .max(SECURITY_FEATURE_CATEGORIES.length)
      .default(3)
      .describe(`How many of the ${SECURITY_FEATURE_CATEGORIES.length} categories the agent must tick`),
  }),
  plainStep('serial_number'),
  z.strictObject({
    kind: z.literal('second_channel_code'),
    mandatory,
    channel: z.enum(CODE_CHANNELS).default('email').describe('Where the 6-digit code is sent'),
    max_tries: z.number().int().min(1).max(PROCEDURE_LIMITS.maxTries).default(3),
  }),
  z.strictObject({
    kind: z.literal('questions'),
    mandatory,
    count: z
      .number()
      .int()
      .min(1)
      .max(PROCEDURE_LIMITS.questionsDrawn)
      .describe('How many questions are drawn at random from the pool (at most the pool size)'),
    pool: z.array(procedureQuestionSchema).min(1).max(PROCEDURE_LIMITS.questions),
  }),
  plainStep('decision'),
]);
export type ProcedureStep = z.infer<typeof procedureStepSchema>;

/** The id of an abort or decision reason: a stable code, stored with the call. */
export const reasonIdSchema = z.string().regex(REASON_ID_PATTERN, REASON_ID_HINT);

export const procedureReasonSchema = z.strictObject({
  id: reasonIdSchema.describe('A stable code (stored with the call)'),
  en: lineText.trim().min(1).max(PROCEDURE_LIMITS.reasonLabel),
  tr: lineText.trim().min(1).max(PROCEDURE_LIMITS.reasonLabel),
});
export type ProcedureReason = z.infer<typeof procedureReasonSchema>;

const reasonList = z.array(procedureReasonSchema).min(1).max(PROCEDURE_LIMITS.reasons);

const consentText = multilineText.trim().min(1).max(PROCEDURE_LIMITS.consentText);

/** The procedure an Admin writes (PUT body) and everyone reads (GET, with its version). */
export const identProcedureBodySchema = z
  .strictObject({
    guided: z
      .boolean()
      .default(false)
      .describe(
        'true: agents are guided through the steps, and a passing decision needs every mandatory step passed',
      ),
    steps: z.array(procedureStepSchema).min(1).max(STEP_KINDS.length),
    consent_text: z.strictObject({ en: consentText, tr: consentText }),
    abort_reasons: reasonList,
    decision_reasons: reasonList,
  })
  .superRefine((procedure, issue) => {
    const { steps } = procedure;
    const seen = new Set<string>();
    steps.forEach((step, index) => {
      if (seen.has(step.kind))
        issue.addIssue({
          code: 'custom',
          path: ['steps', index, 'kind'],
          message: `${step.kind} appears more than once`,
        });
      seen.add(step.kind);
      if (step.kind === 'consent' && index !== 0)
        issue.addIssue({
          code: 'custom',
          path: ['steps', index, 'kind'],
          message: 'consent must be the first step',
        });
      if (step.kind === 'questions' && step.count > step.pool.length)
        issue.addIssue({
          code: 'custom',
          path: ['steps', index, 'count'],
          message: 'Cannot draw more questions than the pool holds',
        });
    });
    const last = steps[steps.length - 1];
    if (last?.kind !== 'decision')
      issue.addIssue({ code: 'custom', path: ['steps'], message: 'decision must be the last step' });
    else if (!last.mandatory)
      issue.addIssue({
        code: 'custom',
        path: ['steps', steps.length - 1, 'mandatory'],
        message: 'decision must be mandatory',
      });
    for (const list of ['abort_reasons', 'decision_reasons'] as const) {
      const ids = new Set<string>();
      procedure[list].forEach((reason, index) => {
        if (ids.has(reason.id))
          issue.addIssue({
            code: 'custom',
            path: [list, index, 'id'],
            message: `${reason.id} appears more than once`,
          });
        ids.add(reason.id);
      });
    }
  });
export type IdentProcedureBody = z.input<typeof identProcedureBodySchema>;
export type IdentProcedureFields = z.output<typeof identProcedureBodySchema>;

export const identProcedureSchema = z.object({
  guided: z.boolean(),
  steps: z.array(procedureStepSchema),
  consent_text: z.object({ en: z.string(), tr: z.string() }),
  abort_reasons: z.array(procedureReasonSchema),
  decision_reasons: z.array(procedureReasonSchema),
  /** The version for If-Match (0: the default template, never saved). */
  version: z.number().int(),
  /** true: the company never saved one, this is the default template. */
  is_default: z.boolean(),
  updated_at: isoDateTime.nullable(),
  updated_by: z.number().int().nullable(),
});
export type IdentProcedure = z.infer<typeof identProcedureSchema>;

const label = (en: string, tr: string) => ({ en, tr });

/** The default template (BaFin Circular 3/2017): what a company without a procedure of its own gets. */
export const DEFAULT_IDENT_PROCEDURE: IdentProcedureFields = {
  guided: false,
  steps: [
    { kind: 'consent', mandatory: true },
    { kind: 'face_screenshot', mandatory: true },
    { kind: 'id_front', mandatory: true },
    { kind: 'id_back', mandatory: true },
    { kind: 'security_features', mandatory: true, min_categories: 3 },
    { kind: 'serial_number', mandatory: true },
    { kind: 'second_channel_code', mandatory: true, channel: 'email', max_tries: 3 },
    {
      kind: 'questions',
      mandatory: true,
      count: 2,
      pool: [
        { text: 'What is your date of birth?', text_tr: 'Doğum tarihiniz nedir?' },
        { text: 'Where were you born?', text_tr: 'Nerede doğdunuz?' },
        { text: 'What is your current home address?', text_tr: 'Şu anki ev adresiniz nedir?' },
        { text: 'What is your nationality?', text_tr: 'Uyruğunuz nedir?' },
        {
          text: 'Why are you opening this account?',
          text_tr: 'Bu hesabı hangi amaçla açıyorsunuz?',
        },
        {
          text: 'Which e-mail address did you give us?',
          text_tr: 'Bize hangi e-posta adresini verdiniz?',
        },
      ],
    },
    { kind: 'decision', mandatory: true },
  ],
  consent_text: {
    en:
      'I agree that this video call is recorded, audio and video, and that photographs of my face and of ' +
      'both sides of my ID document are taken, to verify my identity. The recording is kept for 5 years.',
    tr:
      'Kimliğimin doğrulanması için bu görüntülü görüşmenin sesli ve görüntülü olarak kaydedilmesini, ' +
      'yüzümün ve kimlik belgemin iki yüzünün fotoğraflarının çekilmesini kabul ediyorum. Kayıt 5 yıl saklanır.',
  },
  abort_reasons: [
    { id: 'light', ...label('Poor light', 'Yetersiz ışık') },
    { id: 'picture', ...label('Poor picture', 'Kötü görüntü') },
    { id: 'sound', ...label('Poor sound', 'Kötü ses') },
    { id: 'connection', ...label('Connection problem', 'Bağlantı sorunu') },
    { id: 'document_not_accepted', ...label('Document not accepted', 'Belge kabul edilmedi') },
    { id: 'suspected_fraud', ...label('Suspected fraud', 'Dolandırıcılık şüphesi') },
    { id: 'customer_left', ...label('Customer left', 'Müşteri ayrıldı') },
  ],
  decision_reasons: [
    { id: 'identity_verified', ...label('Identity verified', 'Kimlik doğrulandı') },
    { id: 'person_mismatch', ...label('Person does not match the document', 'Kişi belgeyle eşleşmiyor') },
    { id: 'document_invalid', ...label('Document invalid or damaged', 'Belge geçersiz veya hasarlı') },
    { id: 'step_failed', ...label('A mandatory step failed', 'Zorunlu bir adım başarısız oldu') },
    { id: 'suspected_fraud', ...label('Suspected fraud', 'Dolandırıcılık şüphesi') },
  ],
};

// ---------------------------------------------------------------- step results of a call

/** The details of a step result: a small flat object (ticked categories, the question asked, a storage key). */
const detailValue = z.union([
  multilineText.max(2000),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([lineText.max(200), z.number()])).max(50),
]);
export const stepDetailsSchema = z
  .record(z.string().regex(REASON_ID_PATTERN, REASON_ID_HINT), detailValue)
  .refine((details) => Object.keys(details).length <= 30, 'At most 30 details')
  .describe(
    'What the step found, e.g. `{ "categories": ["material"], "question": "…", "screenshot": "key" }`',
  );

export const callStepBodySchema = z.strictObject({
  kind: z.enum(STEP_KINDS),
  result: z.enum(STEP_RESULTS),
  details: stepDetailsSchema.default({}),
  offset_ms: z
    .number()
    .int()
    .min(0)
    .max(MAX_STEP_OFFSET_MS)
    .describe('Milliseconds into the recording when the step was done'),
});
export type CallStepBody = z.input<typeof callStepBodySchema>;
export type CallStepFields = z.output<typeof callStepBodySchema>;

export const callStepSchema = z.object({
  id: z.number().int(),
  call: z.number().int(),
  kind: z.enum(STEP_KINDS),
  result: z.enum(STEP_RESULTS),
  details: z.record(z.string(), z.unknown()),
  offset_ms: z.number().int(),
  created_at: isoDateTime,
  created_by: z.number().int().nullable(),
});
export type CallStep = z.infer<typeof callStepSchema>;

// ---------------------------------------------------------------- the customer's side of a guided call

/** Call ids as the customer page sends them: a positive 32-bit integer. */
const callIdField = z.number().int().min(1).max(MAX_ID);

export const currentStepBodySchema = z.strictObject({
  kind: z.enum(STEP_KINDS).describe('The step the customer is asked to do now'),
});

/** Where the second-channel code went: the channel and the address or number, partly hidden. */
export const codeSentSchema = z.object({
  channel: z.enum(CODE_CHANNELS),
  to: z.string().describe('The e-mail address or phone number, partly hidden (`j•••@example.com`)'),
  tries_left: z.number().int(),
  sent_at: isoDateTime,
});
export type CodeSent = z.infer<typeof codeSentSchema>;

/** What the customer page shows during a guided call (read again after a reload). */
export const customerGuideSchema = z.object({
  step: z.enum(STEP_KINDS).nullable().describe('The step the agent shows now (null: none yet)'),
  code: codeSentSchema.nullable().describe('The code sent for this call, while it can still be typed'),
  serial_tries_left: z.number().int(),
});
export type CustomerGuide = z.infer<typeof customerGuideSchema>;

export const customerGuideQuerySchema = z.strictObject({
  call_id: z.coerce.number().pipe(callIdField),
});

export const serialNumberBodySchema = z.strictObject({
  call_id: callIdField,
  serial_number: lineText
    .trim()
    .min(1)
    .max(CALL_GUIDE_LIMITS.serialLength)
    .describe('The serial number of the ID document, as the customer reads it'),
});

export const callCodeBodySchema = z.strictObject({
  call_id: callIdField,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits')
    .describe('The 6-digit code the customer received'),
});

export const entryReplySchema = z.object({
  accepted: z
    .boolean()
    .describe('Code: whether it was right. Serial number: always true (the agent sees the check)'),
  tries_left: z.number().int(),
});
export type EntryReply = z.infer<typeof entryReplySchema>;

// ---------------------------------------------------------------- screenshots of a call

/** The steps whose `passed` needs a screenshot of the customer's video taken in the call. */
export const SCREENSHOT_STEPS = [
  'face_screenshot',
  'id_front',
  'id_back',
  'security_features',
] as const satisfies readonly StepKind[];
export type ScreenshotStep = (typeof SCREENSHOT_STEPS)[number];
export const isScreenshotStep = (kind: string): kind is ScreenshotStep =>
  (SCREENSHOT_STEPS as readonly string[]).includes(kind);

/** The largest screenshot accepted (a JPEG of a full-HD frame is about 300 KB). */
export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
/** The screenshots of one call, at most (a runaway client cannot fill the storage). */
export const MAX_SCREENSHOTS_PER_CALL = 100;
export const SCREENSHOT_TYPES = ['image/jpeg', 'image/png'] as const;

/**
 * How many screenshots a `passed` step needs: one for the face and each side of the ID, and for the security
 * features one per ticked category (at least one).
 */
export function screenshotsNeeded(kind: ScreenshotStep, categories: number): number {
  return kind === 'security_features' ? Math.max(1, categories) : 1;
}

export const SCREENSHOT_DETAILS = {
  needed: (kind: string, count: number) =>
    `A passed ${kind} needs ${count === 1 ? 'a screenshot' : `${count} screenshots`} of this call in ` +
    'details.screenshots (POST /videocall/{id}/screenshots first)',
  notOfCall: (id: unknown, kind: string) =>
    `details.screenshots: ${String(id).slice(0, 40)} is not a ${kind} screenshot of this call`,
  notAnImage: 'The screenshot must be a JPEG or PNG image (checked by its first bytes)',
  tooLarge: `A screenshot may be at most ${MAX_SCREENSHOT_BYTES / 1048576} MB`,
  tooMany: `A call may have at most ${MAX_SCREENSHOTS_PER_CALL} screenshots`,
  notTalking: 'Screenshots are taken while the call is talking',
  notAgent: 'Only the agent of the call can take its screenshots',
} as const;

export const screenshotQuerySchema = z.strictObject({
  kind: z.enum(SCREENSHOT_STEPS).describe('The step the screenshot is taken for'),
});

export const callScreenshotSchema = z.object({
  id: z.number().int(),
  call: z.number().int(),
  kind: z.enum(SCREENSHOT_STEPS),
  content_type: z.enum(SCREENSHOT_TYPES),
  size: z.number().int().nullable().describe('null once the retention job deleted it'),
  sha256: z.string(),
  created_at: isoDateTime,
  created_by: z.number().int().nullable(),
  deleted: z.boolean().describe('Deleted by the retention job (the hash stays)'),
});
export type CallScreenshot = z.infer<typeof callScreenshotSchema>;
