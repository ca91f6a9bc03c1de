/**
 * The Verification Steps tab (docs/product/screens.md): where a profile stands on the way to a decision, derived from its
 * documents, AML result, video calls and status. Pure; each step is done, failed, needs attention, waiting
 * or skipped (its service is off).
 */
export type StepState = 'done' | 'failed' | 'attention' | 'waiting' | 'skipped';
export type StepName = 'identityDocument' | 'selfie' | 'documentChecks' | 'aml' | 'videoCall' | 'decision';

export interface StepInput {
  status: string;
  documents: {
    document_class: string;
    status: string;
    checks: Record<string, { result: 'passed' | 'warning' | 'failed' | 'not_run' }>;
  }[];
  /** null: not screened yet; 'off': the company has no AML provider. */
  aml: { records: unknown[]; approved: boolean | null } | null | 'off';
  /** Call status codes (COMPLETE is 3); 'off' without the video_kyc service. */
  calls: number[] | 'off';
}

const IDENTITY_CLASSES = ['ID', 'PA', 'DL'];
const COMPLETE = 3;

export function verificationSteps(input: StepInput): { name: StepName; state: StepState }[] {
  const identity = input.documents.filter((d) => IDENTITY_CLASSES.includes(d.document_class));
  const selfies = input.documents.filter((d) => d.document_class === 'SE');
  const presence = (docs: StepInput['documents']): StepState =>
    docs.length === 0
      ? 'waiting'
      : docs.some((d) => d.status === 'approved')
        ? 'done'
        : docs.every((d) => d.status === 'rejected')
          ? 'failed'
          : 'attention';

  const results = identity.flatMap((d) => Object.values(d.checks).map((check) => check.result));
  const checks: StepState =
    results.length === 0 || results.every((r) => r === 'not_run')
      ? 'waiting'
      : results.includes('failed')
        ? 'failed'
        : results.includes('warning')
          ? 'attention'
          : 'done';

  const aml: StepState =
    input.aml === 'off'
      ? 'skipped'
      : input.aml === null
        ? 'waiting'
        : input.aml.records.length === 0 || input.aml.approved === true
          ? 'done'
          : input.aml.approved === false
            ? 'failed'
            : 'attention';

  const call: StepState =
    input.calls === 'off'
      ? 'skipped'
      : input.calls.includes(COMPLETE)
        ? 'done'
        : input.calls.length
          ? 'attention'
          : 'waiting';

  const decision: StepState = ['Approved', 'Temporarily Approved'].includes(input.status)
    ? 'done'
    : ['Rejected', 'Blacklisted'].includes(input.status)
      ? 'failed'
      : 'waiting';

  return [
    { name: 'identityDocument', state: presence(identity) },
    { name: 'selfie', state: presence(selfies) },
    { name: 'documentChecks', state: checks },
    { name: 'aml', state: aml },
    { name: 'videoCall', state: call },
    { name: 'decision', state: decision },
  ];
}
