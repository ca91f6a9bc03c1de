/**
 * The steps of a guided identification as the agent goes through them in the call: the
 * procedure's steps in order (the decision excluded: it is the call's status), the current one, and Passed /
 * Failed for it. Security features pass with at least `min_categories` categories ticked; questions with every
 * drawn question marked passed. Each result is recorded on the server (`record`, which adds the offset in the
 * recording); the results already recorded are read first (`load`), so a screen opened again continues.
 * The latest result of a kind counts, as on the server. The face, ID front, ID back and security-features steps
 * need screenshots of the customer's video (`shoot`, one per ticked category for the security features) before
 * Passed, and take no more than that; the result names them (`details.screenshots`), Passed or Failed, and a
 * recorded result starts the next check afresh (a bad screenshot: Failed, then new ones).
 * Pure: requests come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { CALL_STATUS_COMPLETE } from '#contract/constants';
import {
  isScreenshotStep,
  type ProcedureQuestion,
  type ProcedureStep,
  type ScreenshotStep,
  type StepKind,
  screenshotsNeeded,
} from '#contract/identProcedure';

export type StepOutcome = 'passed' | 'failed';
export type QuestionMark = StepOutcome | null;

/** What `record` sends: the step's kind, its result and what it found. */
export interface StepRecord {
  kind: StepKind;
  result: StepOutcome;
  details: Record<string, string | number | boolean | null | (string | number)[]>;
}

/** A screenshot taken for a step: its id on the server and a preview address (null when read back). */
export interface Shot {
  id: number;
  preview: string | null;
}

/** What `load` answers: the latest results and the screenshots taken but not named by any result yet. */
export interface LoadedSteps {
  results: Partial<Record<StepKind, StepOutcome>>;
  shots: Partial<Record<ScreenshotStep, Shot[]>>;
}

export interface IdentStepsContext {
  /** The procedure's steps without the decision, in order. */
  steps: ProcedureStep[];
  /** The questions drawn for this call (from the `questions` step's pool). */
  drawn: ProcedureQuestion[];
  /** The latest result of each kind. */
  results: Partial<Record<StepKind, StepOutcome>>;
  /** Index in `steps` of the step shown. */
  current: number;
  /** Security-feature categories ticked for the current check. */
  categories: string[];
  /** Each drawn question marked passed or failed (null: not yet). */
  marks: QuestionMark[];
  /** Why the agent passes the step against a machine check's hint ("faces differ"); recorded with it. */
  reason: string;
  /** The screenshots of each step taken since its last recorded result. */
  shots: Partial<Record<ScreenshotStep, Shot[]>>;
  error: string | null;
}

export type IdentStepsEvent =
  | { type: 'SELECT'; index: number }
  | { type: 'CATEGORY.TOGGLE'; category: string }
  | { type: 'QUESTION.MARK'; index: number; mark: StepOutcome }
  | { type: 'REASON.CHANGE'; reason: string }
  | { type: 'SHOOT' }
  | { type: 'PASS' }
  | { type: 'FAIL' }
  /** A result recorded by the server from the customer's entry (a code, a serial number): it counts too. */
  | { type: 'RESULT.RECORDED'; kind: StepKind; result: string };

/** The error of a result not recorded without a detail from the server (the view says it in its language). */
export const RECORD_FAILED = 'record failed';
/** The error of a screenshot not stored without a detail from the server. */
export const SHOT_FAILED = 'screenshot failed';
/** The error of a screenshot when the customer's video shows nothing yet (`shoot` rejects with it). */
export const NO_VIDEO = 'no video';

const detailOf = (error: unknown): string | null =>
  typeof error === 'object' && error !== null && 'detail' in error ? String(error.detail) : null;

/** Draws `count` questions of the pool at random (`random` in [0, 1), Math.random in the app). */
export function drawQuestions(
  pool: readonly ProcedureQuestion[],
  count: number,
  random: () => number,
): ProcedureQuestion[] {
  const left = [...pool];
  const drawn: ProcedureQuestion[] = [];
  while (drawn.length < count && left.length > 0) {
    const [picked] = left.splice(Math.floor(random() * left.length), 1);
    if (picked) drawn.push(picked);
  }
  return drawn;
}

/** The latest result of each kind among a call's recorded results (by id: the order they were recorded). */
export function latestResults(
  recorded: readonly { id: number; kind: StepKind; result: string }[],
): Partial<Record<StepKind, StepOutcome>> {
  const results: Partial<Record<StepKind, StepOutcome>> = {};
  for (const r of [...recorded].sort((a, b) => a.id - b.id))
    results[r.kind] = r.result === 'passed' ? 'passed' : 'failed';
  return results;
}

/**
 * The screenshots of a call not named by any of its recorded results, by step: what a screen opened again
 * still has to name.
 */
export function pendingShots(
  recorded: readonly { details: Record<string, unknown> }[],
  screenshots: readonly { id: number; kind: string; deleted?: boolean }[],
): Partial<Record<ScreenshotStep, Shot[]>> {
  const named = new Set(
    recorded.flatMap((r) => (Array.isArray(r.details.screenshots) ? r.details.screenshots : [])),
  );
  const shots: Partial<Record<ScreenshotStep, Shot[]>> = {};
  for (const shot of screenshots)
    if (isScreenshotStep(shot.kind) && !shot.deleted && !named.has(shot.id))
      shots[shot.kind] = [...(shots[shot.kind] ?? []), { id: shot.id, preview: null }];
  return shots;
}

/** The screenshots the current step still needs before Passed (0 for a step that takes none). */
export function shotsMissing(
  context: Pick<IdentStepsContext, 'steps' | 'current' | 'categories' | 'shots'>,
): number {
  const step = context.steps[context.current];
  if (!step || !isScreenshotStep(step.kind)) return 0;
  const needed = screenshotsNeeded(
    step.kind,
    step.kind === 'security_features' ? context.categories.length : 0,
  );
  return Math.max(0, needed - (context.shots[step.kind]?.length ?? 0));
}

/** The mandatory steps whose latest result is not passed, in procedure order (what blocks COMPLETE). */
export function missingSteps(context: Pick<IdentStepsContext, 'steps' | 'results'>): StepKind[] {
  return context.steps.filter((s) => s.mandatory && context.results[s.kind] !== 'passed').map((s) => s.kind);
}

/**
 * Whether the end screen may save: a status picked; on a guided call also a reason, and for COMPLETE no
 * mandatory step missing (the server refuses it otherwise).
 */
export function mayEnd(end: {
  guided: boolean;
  status: number | null;
  reason: string | null;
  missing: readonly StepKind[];
}): boolean {
  if (end.status === null) return false;
  if (!end.guided) return true;
  return end.reason !== null && (end.status !== CALL_STATUS_COMPLETE || end.missing.length === 0);
}

/** Whether Passed may be pressed on the current step. */
export function mayPass(context: IdentStepsContext): boolean {
  const step = context.steps[context.current];
  if (!step || shotsMissing(context) > 0) return false;
  if (step.kind === 'security_features') return context.categories.length >= step.min_categories;
  if (step.kind === 'questions')
    return context.marks.length > 0 && context.marks.every((m) => m === 'passed');
  return true;
}

/** The first step after `from` (wrapping round) not passed yet; `from` itself when every step passed. */
function nextOpen(context: Pick<IdentStepsContext, 'steps' | 'results'>, from: number): number {
  const { steps, results } = context;
  for (let i = 1; i <= steps.length; i++) {
    const index = (from + i) % steps.length;
    const step = steps[index];
    if (step && results[step.kind] !== 'passed') return index;
  }
  return from;
}

function recordOf(context: IdentStepsContext, result: StepOutcome): StepRecord {
  const step = context.steps[context.current] as ProcedureStep;
  const shots = isScreenshotStep(step.kind) ? (context.shots[step.kind] ?? []) : [];
  const screenshots: StepRecord['details'] =
    shots.length > 0 ? { screenshots: shots.map((shot) => shot.id) } : {};
  if (step.kind === 'security_features')
    return { kind: step.kind, result, details: { categories: [...context.categories], ...screenshots } };
  if (step.kind === 'questions')
    return {
      kind: step.kind,
      result,
      details: {
        questions: context.drawn.map((q) => q.text),
        marks: context.marks.map((m) => m ?? 'unmarked'),
      },
    };
  const reason = context.reason.trim();
  return {
    kind: step.kind,
    result,
    details: { ...screenshots, ...(reason ? { override_reason: reason } : {}) },
  };
}

/** The screenshots left once the current step's result is recorded: that step's were named by it. */
function shotsAfterRecord(context: IdentStepsContext): IdentStepsContext['shots'] {
  const step = context.steps[context.current];
  if (!step || !isScreenshotStep(step.kind)) return context.shots;
  const { [step.kind]: _named, ...rest } = context.shots;
  return rest;
}

/** A fresh check of the step shown: nothing ticked, nothing marked. */
const freshCheck = (drawn: readonly unknown[]) => ({
  categories: [],
  marks: drawn.map(() => null),
  reason: '',
});

export const identStepsMachine = setup({
  types: {
    context: {} as IdentStepsContext,
    events: {} as IdentStepsEvent,
    input: {} as { steps: readonly ProcedureStep[]; drawn: readonly ProcedureQuestion[] },
  },
  actors: {
    /** The latest result of each kind already recorded in the call, and the screenshots not named yet. */
    load: fromPromise<LoadedSteps>(async () => {
      throw new Error('load is provided by the app');
    }),
    /** Takes a screenshot of the customer's video for the step and stores it (rejects with NO_VIDEO). */
    shoot: fromPromise<Shot, { kind: ScreenshotStep }>(async () => {
      throw new Error('shoot is provided by the app');
    }),
    /** Records one result (the app adds the offset in the recording). */
    record: fromPromise<unknown, StepRecord>(async () => {
      throw new Error('record is provided by the app');
    }),
  },
  guards: {
    mayPass: ({ context }) => mayPass(context),
    hasStep: ({ context }) => context.steps[context.current] !== undefined,
    // As many as the step needs: a bad one is a Failed check, and the next check takes new ones.
    needsShot: ({ context }) => shotsMissing(context) > 0,
    validIndex: ({ context }, index: number) => Number.isInteger(index) && context.steps[index] !== undefined,
  },
}).createMachine({
  id: 'identSteps',
  context: ({ input }) => {
    const steps = input.steps.filter((s) => s.kind !== 'decision');
    return {
      steps,
      drawn: [...input.drawn],
      results: {},
      current: 0,
      ...freshCheck(input.drawn),
      shots: {},
      error: null,
    };
  },
  initial: 'loading',
  on: {
    'RESULT.RECORDED': {
      actions: assign(({ context, event }) => {
        const result: StepOutcome = event.result === 'passed' ? 'passed' : 'failed';
        const results = { ...context.results, [event.kind]: result };
        // The step shown passed by the customer's entry: on to the next open one, as after Passed.
        const shownPassed = result === 'passed' && context.steps[context.current]?.kind === event.kind;
        if (!shownPassed) return { results };
        return {
          results,
          current: nextOpen({ steps: context.steps, results }, context.current),
          ...freshCheck(context.drawn),
          error: null,
        };
      }),
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'load',
        id: 'load',
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const { results, shots } = event.output;
            const first = context.steps.findIndex((s) => results[s.kind] !== 'passed');
            return { results, shots, current: first === -1 ? 0 : first };
          }),
        },
        // Not read: the agent starts at the first step; the server still holds what was recorded.
        onError: { target: 'ready' },
      },
    },
    ready: {
      on: {
        SELECT: {
          guard: { type: 'validIndex', params: ({ event }) => event.index },
          actions: assign(({ context, event }) => ({
            current: event.index,
            ...freshCheck(context.drawn),
            error: null,
          })),
        },
        'CATEGORY.TOGGLE': {
          actions: assign(({ context, event }) => ({
            categories: context.categories.includes(event.category)
              ? context.categories.filter((c) => c !== event.category)
              : [...context.categories, event.category],
          })),
        },
        'QUESTION.MARK': {
          actions: assign(({ context, event }) => ({
            marks: context.marks.map((m, i) => (i === event.index ? event.mark : m)),
          })),
        },
        'REASON.CHANGE': { actions: assign(({ event }) => ({ reason: event.reason.slice(0, 500) })) },
        SHOOT: { guard: 'needsShot', target: 'shooting' },
        PASS: { guard: 'mayPass', target: 'recording.passed' },
        FAIL: { guard: 'hasStep', target: 'recording.failed' },
      },
    },
    shooting: {
      invoke: {
        src: 'shoot',
        id: 'shoot',
        input: ({ context }) => ({ kind: context.steps[context.current]?.kind as ScreenshotStep }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const kind = context.steps[context.current]?.kind as ScreenshotStep;
            return {
              shots: { ...context.shots, [kind]: [...(context.shots[kind] ?? []), event.output] },
              error: null,
            };
          }),
        },
        onError: {
          target: 'ready',
          actions: assign(({ event }) => ({ error: detailOf(event.error) ?? SHOT_FAILED })),
        },
      },
    },
    recording: {
      // Entered as recording.passed or recording.failed only.
      initial: 'passed',
      states: {
        passed: {
          invoke: {
            src: 'record',
            id: 'record',
            input: ({ context }) => recordOf(context, 'passed'),
            onDone: {
              target: '#identSteps.ready',
              actions: assign(({ context }) => {
                const step = context.steps[context.current] as ProcedureStep;
                const results = { ...context.results, [step.kind]: 'passed' as const };
                return {
                  results,
                  shots: shotsAfterRecord(context),
                  current: nextOpen({ steps: context.steps, results }, context.current),
                  ...freshCheck(context.drawn),
                  error: null,
                };
              }),
            },
            onError: {
              target: '#identSteps.ready',
              actions: assign(({ event }) => ({ error: detailOf(event.error) ?? RECORD_FAILED })),
            },
          },
        },
        failed: {
          invoke: {
            src: 'record',
            id: 'record',
            input: ({ context }) => recordOf(context, 'failed'),
            onDone: {
              target: '#identSteps.ready',
              // A failed step stays the current one: the agent may check it again (the latest result counts).
              actions: assign(({ context }) => {
                const step = context.steps[context.current] as ProcedureStep;
                return {
                  results: { ...context.results, [step.kind]: 'failed' as const },
                  shots: shotsAfterRecord(context),
                  ...freshCheck(context.drawn),
                  error: null,
                };
              }),
            },
            onError: {
              target: '#identSteps.ready',
              actions: assign(({ event }) => ({ error: detailOf(event.error) ?? RECORD_FAILED })),
            },
          },
        },
      },
    },
  },
});
