import { describe, expect, it } from 'vitest';
import { identProcedureBodySchema } from '#contract/identProcedure';
import {
  addQuestion,
  addReason,
  addStep,
  bodyOf,
  canMove,
  defaultDraft,
  editQuestion,
  missingKinds,
  moveStep,
  removeQuestion,
  removeStep,
  toggleMandatory,
} from '../../../src/machines/identProcedureDraft';

const kinds = (draft: ReturnType<typeof defaultDraft>) => draft.steps.map((s) => s.kind);

describe('the procedure draft', () => {
  it('moves steps between consent and decision only', () => {
    const draft = defaultDraft();
    expect(canMove(draft, 0, 1)).toBe(false);
    expect(canMove(draft, 1, -1)).toBe(false);
    expect(canMove(draft, 7, 1)).toBe(false);
    const moved = moveStep(draft, 5, -1);
    expect(kinds(moved).slice(4, 6)).toEqual(['serial_number', 'security_features']);
    expect(moveStep(draft, 8, -1)).toBe(draft);
  });

  it('keeps the decision mandatory and in place, and adds steps where they belong', () => {
    const draft = defaultDraft();
    expect(toggleMandatory(draft, 8).steps[8]?.mandatory).toBe(true);
    expect(toggleMandatory(draft, 3).steps[3]?.mandatory).toBe(false);
    expect(removeStep(draft, 8)).toBe(draft);
    const without = removeStep(removeStep(draft, 0), 4);
    expect(missingKinds(without)).toEqual(['consent', 'serial_number']);
    const back = addStep(addStep(without, 'serial_number'), 'consent');
    expect(kinds(back)[0]).toBe('consent');
    expect(kinds(back).at(-2)).toBe('serial_number');
    expect(kinds(back).at(-1)).toBe('decision');
    expect(identProcedureBodySchema.safeParse(back).success).toBe(true);
  });

  it('edits the question pool, keeping the drawn count within it, and sends an empty Turkish text as none', () => {
    let draft = defaultDraft();
    draft = addQuestion(draft, 7);
    draft = editQuestion(draft, 7, 6, 'text', 'Your favourite colour?');
    for (let q = 5; q >= 1; q -= 1) draft = removeQuestion(draft, 7, q);
    const step = draft.steps[7];
    expect(step?.kind === 'questions' && step.pool.map((q) => q.text)).toEqual([
      'What is your date of birth?',
      'Your favourite colour?',
    ]);
    const one = removeQuestion(draft, 7, 0);
    expect(one.steps[7]).toMatchObject({ count: 1 });
    const body = bodyOf(draft);
    expect(body.steps[7]).toMatchObject({ pool: [{ text_tr: 'Doğum tarihiniz nedir?' }, { text_tr: null }] });
    expect(identProcedureBodySchema.safeParse(body).success).toBe(true);
  });

  it('gives a new reason an id not yet used', () => {
    const twice = addReason(addReason(defaultDraft(), 'abort_reasons'), 'abort_reasons');
    expect(twice.abort_reasons.slice(-2).map((r) => r.id)).toEqual(['custom_1', 'custom_2']);
  });
});
