import { describe, expect, it } from 'vitest';
import { type StepInput, verificationSteps } from '../../../src/machines/verificationSteps';

const passed = { document: { result: 'passed' }, fraud: { result: 'passed' } } as const;
const doc = (
  document_class: string,
  status: string,
  checks: StepInput['documents'][number]['checks'] = passed,
) => ({
  document_class,
  status,
  checks,
});
const states = (input: StepInput) =>
  Object.fromEntries(verificationSteps(input).map((s) => [s.name, s.state]));

describe('verification steps', () => {
  it('waits on everything for a new profile', () => {
    expect(states({ status: 'Created', documents: [], aml: null, calls: [] })).toEqual({
      identityDocument: 'waiting',
      selfie: 'waiting',
      documentChecks: 'waiting',
      aml: 'waiting',
      videoCall: 'waiting',
      decision: 'waiting',
    });
  });

  it('is done for an approved profile with approved documents, a clear screening and a completed call', () => {
    expect(
      states({
        status: 'Approved',
        documents: [doc('PA', 'approved'), doc('SE', 'approved')],
        aml: { records: [], approved: null },
        calls: [2, 3],
      }),
    ).toEqual({
      identityDocument: 'done',
      selfie: 'done',
      documentChecks: 'done',
      aml: 'done',
      videoCall: 'done',
      decision: 'done',
    });
  });

  it('flags failures and what needs a look', () => {
    const result = states({
      status: 'Rejected',
      documents: [doc('ID', 'rejected', { document: { result: 'failed' } }), doc('SE', 'pending_review')],
      aml: { records: [{}], approved: null },
      calls: [2],
    });
    expect(result).toEqual({
      identityDocument: 'failed',
      selfie: 'attention',
      documentChecks: 'failed',
      aml: 'attention',
      videoCall: 'attention',
      decision: 'failed',
    });
    expect(
      states({
        status: 'Pending Review',
        documents: [doc('ID', 'pending_review', { fraud: { result: 'warning' } })],
        aml: { records: [{}], approved: false },
        calls: [],
      }).documentChecks,
    ).toBe('attention');
  });

  it('skips the steps of services the company does not use', () => {
    const result = states({ status: 'Created', documents: [], aml: 'off', calls: 'off' });
    expect([result.aml, result.videoCall]).toEqual(['skipped', 'skipped']);
  });
});
