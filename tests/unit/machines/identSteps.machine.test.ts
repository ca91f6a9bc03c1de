import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { ProcedureStep } from '#contract/identProcedure';
import {
  drawQuestions,
  type IdentStepsContext,
  identStepsMachine,
  latestResults,
  mayEnd,
  mayPass,
  missingSteps,
  NO_VIDEO,
  pendingShots,
  RECORD_FAILED,
  SHOT_FAILED,
  shotsMissing,
} from '../../../src/machines/identSteps.machine';
import { done, Effects, failed, modelCases, replay } from './modelPaths';

/** A small procedure: a plain step, a feature check needing 2 categories, one optional drawn question. */
const steps: ProcedureStep[] = [
  { kind: 'id_front', mandatory: true },
  { kind: 'security_features', mandatory: true, min_categories: 2 },
  { kind: 'questions', mandatory: false, count: 1, pool: [{ text: 'Where were you born?', text_tr: null }] },
  { kind: 'decision', mandatory: true },
];
const input = { steps, drawn: [{ text: 'Where were you born?', text_tr: null }] };

const events = [
  { type: 'SELECT', index: 1 },
  { type: 'SELECT', index: 9 },
  { type: 'CATEGORY.TOGGLE', category: 'material' },
  { type: 'QUESTION.MARK', index: 0, mark: 'passed' },
  { type: 'QUESTION.MARK', index: 0, mark: 'failed' },
  { type: 'SHOOT' },
  { type: 'PASS' },
  { type: 'FAIL' },
  { type: 'RESULT.RECORDED', kind: 'security_features', result: 'passed' },
  { type: 'RESULT.RECORDED', kind: 'questions', result: 'failed' },
  done('load', { results: {}, shots: {} }),
  done('load', { results: { security_features: 'passed' }, shots: {} }),
  failed('load', { status: 500, detail: 'Remote Server Error' }),
  done('shoot', { id: 7, preview: 'blob:7' }),
  failed('shoot', { detail: NO_VIDEO }),
  done('record'),
  failed('record', new TypeError('Failed to fetch')),
] as const;

function sut(start = input) {
  const effects = new Effects();
  const actor = createActor(
    identStepsMachine.provide({
      actors: {
        load: effects.actor('load') as never,
        record: effects.actor('record') as never,
        shoot: effects.actor('shoot') as never,
      },
    }),
    { input: start },
  );
  return { actor, effects };
}

/**
 * The model: the feature check (one category needed, so one screenshot) and the optional question; the plain
 * screenshot steps behave as the feature check with nothing to tick. Two snapshots are the same vertex when
 * they agree on what decides the machine's next steps: the state, the current step, which steps passed, the
 * categories ticked (only while the feature check is shown: every way to another step starts a fresh check)
 * and whether every question is marked passed (only while the questions are shown, likewise), the screenshots
 * each step holds, and whether an error shows. Which step failed, the error's words and the screenshots' ids
 * change nothing the agent can do next, so they do not make new vertices (with them the model had 2,900 cases
 * instead of 900).
 * modelCases runs each path again from the start and fails if a snapshot does not get the vertex the graph
 * gave it, so this key merges only snapshots that behave alike; each case then expects the exact snapshot,
 * whole context included. Every state (loading, ready, shooting, recording.passed, recording.failed, see
 * 'reaches every state') and every transition that changes the vertex is a case; what the key leaves out is
 * asserted by the tests below it: several screenshots for several categories, a failed result naming its
 * screenshots, the errors' words, screenshots read back, results recorded from the customer's entries.
 */
const model = {
  steps: [
    { kind: 'security_features', mandatory: true, min_categories: 1 },
    ...steps.slice(2),
  ] as ProcedureStep[],
  drawn: input.drawn,
};
const cases = modelCases(identStepsMachine, {
  events: events as never,
  input: model,
  serializeState: (s) => {
    const context = s.context as IdentStepsContext;
    const shown = context.steps[context.current]?.kind;
    return JSON.stringify([
      s.value,
      context.current,
      Object.entries(context.results)
        .filter(([, result]) => result === 'passed')
        .map(([kind]) => kind)
        .sort(),
      shown === 'security_features' ? context.categories.length : null,
      shown === 'questions' ? context.marks.every((mark) => mark === 'passed') : null,
      Object.entries(context.shots).map(([kind, shots]) => [kind, shots?.length]),
      context.error !== null,
    ]);
  },
});

describe('ident steps machine: every path of the model', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const { actor, effects } = sut(model);
    await replay(actor, effects, testCase);
  });
});

describe('ident steps machine', () => {
  it('reaches every state', () => {
    const reached = new Set(cases.map((c) => JSON.stringify(c.steps.at(-1)?.state.value)));
    for (const state of [
      '"loading"',
      '"ready"',
      '"shooting"',
      '{"recording":"passed"}',
      '{"recording":"failed"}',
    ])
      expect(reached.has(state), state).toBe(true);
  });

  it('goes through the steps: a screenshot before a plain pass, a feature check with a screenshot per category', async () => {
    const { actor, effects } = sut();
    actor.start();
    await effects.settle('load', { output: { results: {}, shots: {} } });
    expect(actor.getSnapshot().context.steps.map((s) => s.kind)).toEqual([
      'id_front',
      'security_features',
      'questions',
    ]);
    // No screenshot yet: Passed does nothing.
    actor.send({ type: 'PASS' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(shotsMissing(actor.getSnapshot().context)).toBe(1);
    actor.send({ type: 'SHOOT' });
    expect(actor.getSnapshot().value).toBe('shooting');
    await effects.settle('shoot', { output: { id: 11, preview: 'blob:11' } });
    expect(effects.inputs.get('shoot')).toEqual([{ kind: 'id_front' }]);
    expect(actor.getSnapshot().context.shots).toEqual({ id_front: [{ id: 11, preview: 'blob:11' }] });
    actor.send({ type: 'PASS' });
    await effects.settle('record', { output: {} });
    expect(effects.inputs.get('record')).toEqual([
      { kind: 'id_front', result: 'passed', details: { screenshots: [11] } },
    ]);
    // Named by the result: a next check of that step starts without them.
    expect(actor.getSnapshot().context).toMatchObject({ current: 1, shots: {} });

    actor.send({ type: 'CATEGORY.TOGGLE', category: 'material' });
    actor.send({ type: 'PASS' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'CATEGORY.TOGGLE', category: 'security_printing' });
    actor.send({ type: 'SHOOT' });
    await effects.settle('shoot', { output: { id: 12, preview: null } });
    // Two categories ticked, one screenshot: one more needed.
    expect(shotsMissing(actor.getSnapshot().context)).toBe(1);
    actor.send({ type: 'PASS' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'SHOOT' });
    await effects.settle('shoot', { output: { id: 13, preview: null } });
    actor.send({ type: 'PASS' });
    await effects.settle('record', { output: {} });
    expect(effects.inputs.get('record')?.[1]).toEqual({
      kind: 'security_features',
      result: 'passed',
      details: { categories: ['material', 'security_printing'], screenshots: [12, 13] },
    });
    expect(missingSteps(actor.getSnapshot().context)).toEqual([]);

    // The optional question: failed, it stays current; marked passed and passed, it counts.
    actor.send({ type: 'QUESTION.MARK', index: 0, mark: 'failed' });
    actor.send({ type: 'PASS' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'FAIL' });
    await effects.settle('record', { output: {} });
    expect(actor.getSnapshot().context).toMatchObject({ current: 2, results: { questions: 'failed' } });
    expect(effects.inputs.get('record')?.[2]).toEqual({
      kind: 'questions',
      result: 'failed',
      details: { questions: ['Where were you born?'], marks: ['failed'] },
    });
    actor.send({ type: 'QUESTION.MARK', index: 0, mark: 'passed' });
    actor.send({ type: 'PASS' });
    await effects.settle('record', { output: {} });
    expect(actor.getSnapshot().context.results).toEqual({
      id_front: 'passed',
      security_features: 'passed',
      questions: 'passed',
    });
  });

  it('continues after the results already recorded, and keeps a refused result off the list', async () => {
    const { actor, effects } = sut();
    actor.start();
    await effects.settle('load', { output: { results: { id_front: 'passed' }, shots: {} } });
    expect(actor.getSnapshot().context.current).toBe(1);
    actor.send({ type: 'FAIL' });
    await effects.settle('record', { error: new TypeError('Failed to fetch') });
    expect(actor.getSnapshot().context).toMatchObject({
      error: RECORD_FAILED,
      results: { id_front: 'passed' },
    });
    expect(missingSteps(actor.getSnapshot().context)).toEqual(['security_features']);
  });
});

describe('results recorded from the customer’s entries', () => {
  it('a pass of the step shown moves on, as Passed does; a failure or another step’s result only counts', async () => {
    const { actor, effects } = sut();
    actor.start();
    await effects.settle('load', { output: { results: {}, shots: {} } });
    actor.send({ type: 'RESULT.RECORDED', kind: 'security_features', result: 'failed' });
    expect(actor.getSnapshot().context).toMatchObject({
      current: 0,
      results: { security_features: 'failed' },
    });
    actor.send({ type: 'RESULT.RECORDED', kind: 'id_front', result: 'passed' });
    expect(actor.getSnapshot().context).toMatchObject({ current: 1, results: { id_front: 'passed' } });
    actor.send({ type: 'CATEGORY.TOGGLE', category: 'material' });
    actor.send({ type: 'RESULT.RECORDED', kind: 'security_features', result: 'passed' });
    expect(actor.getSnapshot().context).toMatchObject({ current: 2, categories: [] });
    expect(missingSteps(actor.getSnapshot().context)).toEqual([]);
  });
});

describe('ident steps machine: screenshots', () => {
  it('takes none on a step without screenshots, and says why a screenshot was not stored', async () => {
    const { actor, effects } = sut({
      steps: [steps[2] as ProcedureStep, steps[0] as ProcedureStep],
      drawn: [],
    });
    actor.start();
    await effects.settle('load', { output: { results: {}, shots: {} } });
    actor.send({ type: 'SHOOT' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'SELECT', index: 1 });
    actor.send({ type: 'SHOOT' });
    await effects.settle('shoot', { error: { detail: NO_VIDEO } });
    expect(actor.getSnapshot().context).toMatchObject({ error: NO_VIDEO, shots: {} });
    actor.send({ type: 'SHOOT' });
    await effects.settle('shoot', { error: new TypeError('Failed to fetch') });
    expect(actor.getSnapshot().context.error).toBe(SHOT_FAILED);
    actor.send({ type: 'SHOOT' });
    await effects.settle('shoot', { output: { id: 3, preview: null } });
    expect(actor.getSnapshot().context.error).toBeNull();
    // A failed result names the screenshots too; a refused one keeps them for the next try.
    actor.send({ type: 'FAIL' });
    await effects.settle('record', { error: { status: 400, detail: 'bad' } });
    expect(actor.getSnapshot().context.shots).toEqual({ id_front: [{ id: 3, preview: null }] });
    actor.send({ type: 'FAIL' });
    await effects.settle('record', { output: {} });
    expect(effects.inputs.get('record')?.[1]).toEqual({
      kind: 'id_front',
      result: 'failed',
      details: { screenshots: [3] },
    });
    expect(actor.getSnapshot().context.shots).toEqual({});
  });

  it('continues with the screenshots taken but not named by a result yet', async () => {
    const { actor, effects } = sut();
    actor.start();
    await effects.settle('load', {
      output: pendingShotsLoaded(),
    });
    expect(actor.getSnapshot().context.shots).toEqual({ id_front: [{ id: 2, preview: null }] });
    expect(mayPass(actor.getSnapshot().context)).toBe(true);
  });

  it('counts as pending the screenshots no result names, and not those deleted', () => {
    expect(
      pendingShots(
        [{ details: { screenshots: [1] } }, { details: { categories: ['material'] } }],
        [
          { id: 1, kind: 'id_front' },
          { id: 2, kind: 'id_front' },
          { id: 3, kind: 'security_features', deleted: true },
          { id: 4, kind: 'id_back' },
        ],
      ),
    ).toEqual({ id_front: [{ id: 2, preview: null }], id_back: [{ id: 4, preview: null }] });
  });
});

function pendingShotsLoaded() {
  return {
    results: {},
    shots: pendingShots(
      [{ details: { screenshots: [1] } }],
      [
        { id: 1, kind: 'id_front' },
        { id: 2, kind: 'id_front' },
      ],
    ),
  };
}

describe('guided call rules', () => {
  it('counts the latest result of each kind, in the order recorded', () => {
    expect(
      latestResults([
        { id: 3, kind: 'id_back', result: 'failed' },
        { id: 1, kind: 'id_front', result: 'failed' },
        { id: 2, kind: 'id_front', result: 'passed' },
        { id: 4, kind: 'consent', result: 'skipped' },
      ]),
    ).toEqual({ id_front: 'passed', id_back: 'failed', consent: 'failed' });
  });

  it('saves the end only with a status, and on a guided call a reason and, for COMPLETE, no missing step', () => {
    expect(mayEnd({ guided: false, status: 3, reason: null, missing: ['id_front'] })).toBe(true);
    expect(mayEnd({ guided: false, status: null, reason: null, missing: [] })).toBe(false);
    expect(mayEnd({ guided: true, status: 3, reason: 'identity_verified', missing: ['id_front'] })).toBe(
      false,
    );
    expect(mayEnd({ guided: true, status: 3, reason: null, missing: [] })).toBe(false);
    expect(mayEnd({ guided: true, status: 3, reason: 'identity_verified', missing: [] })).toBe(true);
    expect(mayEnd({ guided: true, status: 6, reason: 'light', missing: ['id_front'] })).toBe(true);
  });

  it('draws distinct questions from the pool, at most its size', () => {
    const pool = ['a', 'b', 'c'].map((text) => ({ text }));
    expect(drawQuestions(pool, 2, () => 0)).toEqual([{ text: 'a' }, { text: 'b' }]);
    expect(drawQuestions(pool, 2, () => 0.99)).toEqual([{ text: 'c' }, { text: 'b' }]);
    expect(drawQuestions(pool, 5, Math.random)).toHaveLength(3);
  });
});
