/**
 * The editing rules of the identification procedure tab: the Admin's draft of the steps, the
 * question pool and the reasons, changed one action at a time. Pure: no request, no DOM. The server checks
 * the result again (contract/identProcedure.ts); these functions keep the draft in a shape it accepts:
 * consent stays first, decision stays last and mandatory, each kind at most once.
 */
import {
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedure,
  type IdentProcedureFields,
  type ProcedureReason,
  type ProcedureStep,
  STEP_KINDS,
  type StepKind,
} from '#contract/identProcedure';

export type Draft = IdentProcedureFields;
export type ReasonList = 'abort_reasons' | 'decision_reasons';

/** The editable part of a procedure the server answered. */
export function draftOf(procedure: IdentProcedure): Draft {
  const { guided, steps, consent_text, abort_reasons, decision_reasons } = procedure;
  return structuredClone({ guided, steps, consent_text, abort_reasons, decision_reasons });
}

export const defaultDraft = (): Draft => structuredClone(DEFAULT_IDENT_PROCEDURE);

/** Kinds that stay where they are: consent first, decision last. */
const pinned = (kind: StepKind) => kind === 'consent' || kind === 'decision';

/** Whether the step at `index` can move by `by` (−1 up, +1 down) without passing consent or decision. */
export function canMove(draft: Draft, index: number, by: -1 | 1): boolean {
  const step = draft.steps[index];
  const other = draft.steps[index + by];
  return !!step && !!other && !pinned(step.kind) && !pinned(other.kind);
}

export function moveStep(draft: Draft, index: number, by: -1 | 1): Draft {
  if (!canMove(draft, index, by)) return draft;
  const steps = [...draft.steps];
  const [step] = steps.splice(index, 1);
  if (step) steps.splice(index + by, 0, step);
  return { ...draft, steps };
}

/** The decision is always mandatory. */
export const canToggleMandatory = (step: ProcedureStep) => step.kind !== 'decision';
export const canRemove = (step: ProcedureStep) => step.kind !== 'decision';

export function updateStep(
  draft: Draft,
  index: number,
  change: (step: ProcedureStep) => ProcedureStep,
): Draft {
  return { ...draft, steps: draft.steps.map((step, i) => (i === index ? change(step) : step)) };
}

export function toggleMandatory(draft: Draft, index: number): Draft {
  return updateStep(draft, index, (step) =>
    canToggleMandatory(step) ? { ...step, mandatory: !step.mandatory } : step,
  );
}

export function removeStep(draft: Draft, index: number): Draft {
  const step = draft.steps[index];
  if (!step || !canRemove(step)) return draft;
  return { ...draft, steps: draft.steps.filter((_, i) => i !== index) };
}

/** The kinds not in the procedure, which the Admin may add. */
export const missingKinds = (draft: Draft): StepKind[] =>
  STEP_KINDS.filter((kind) => !draft.steps.some((step) => step.kind === kind));

/** A new step of a kind with the default template's settings: consent goes first, the others before the decision. */
export function addStep(draft: Draft, kind: StepKind): Draft {
  if (!missingKinds(draft).includes(kind)) return draft;
  const template = DEFAULT_IDENT_PROCEDURE.steps.find((step) => step.kind === kind);
  if (!template) return draft;
  const step = structuredClone(template);
  if (kind === 'consent') return { ...draft, steps: [step, ...draft.steps] };
  const decision = draft.steps.findIndex((s) => s.kind === 'decision');
  const at = decision === -1 ? draft.steps.length : decision;
  return { ...draft, steps: [...draft.steps.slice(0, at), step, ...draft.steps.slice(at)] };
}

/** The question pool of the draft's questions step (at `index`). */
function withPool(
  draft: Draft,
  index: number,
  change: (
    pool: { text: string; text_tr?: string | null | undefined }[],
  ) => { text: string; text_tr?: string | null | undefined }[],
): Draft {
  return updateStep(draft, index, (step) => {
    if (step.kind !== 'questions') return step;
    const pool = change(step.pool);
    return { ...step, pool, count: Math.max(1, Math.min(step.count, pool.length)) };
  });
}

export const addQuestion = (draft: Draft, index: number) =>
  withPool(draft, index, (pool) => [...pool, { text: '', text_tr: '' }]);
export const removeQuestion = (draft: Draft, index: number, question: number) =>
  withPool(draft, index, (pool) => pool.filter((_, i) => i !== question));
export const editQuestion = (
  draft: Draft,
  index: number,
  question: number,
  field: 'text' | 'text_tr',
  value: string,
) => withPool(draft, index, (pool) => pool.map((q, i) => (i === question ? { ...q, [field]: value } : q)));

export function editReason(
  draft: Draft,
  list: ReasonList,
  index: number,
  field: 'en' | 'tr',
  value: string,
): Draft {
  return { ...draft, [list]: draft[list].map((r, i) => (i === index ? { ...r, [field]: value } : r)) };
}

export function removeReason(draft: Draft, list: ReasonList, index: number): Draft {
  return { ...draft, [list]: draft[list].filter((_, i) => i !== index) };
}

/** A new reason with an id not yet used in the list (`custom_1`, `custom_2`, …). */
export function addReason(draft: Draft, list: ReasonList): Draft {
  const used = new Set(draft[list].map((r) => r.id));
  let n = 1;
  while (used.has(`custom_${n}`)) n += 1;
  const reason: ProcedureReason = { id: `custom_${n}`, en: '', tr: '' };
  return { ...draft, [list]: [...draft[list], reason] };
}

/**
 * What is sent: an empty Turkish question text means "ask the English one" (null); the rest goes as typed
 * (the server trims and checks it).
 */
export function bodyOf(draft: Draft): Draft {
  return {
    ...draft,
    steps: draft.steps.map((step) =>
      step.kind === 'questions'
        ? {
            ...step,
            pool: step.pool.map((q) => ({ text: q.text, text_tr: q.text_tr?.trim() ? q.text_tr : null })),
          }
        : step,
    ),
  };
}
