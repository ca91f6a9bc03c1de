/** The machine checks as lines of the evidence report (report.pdf): what each found, with its engine. */
import type { MachineCheck } from '#contract/machineChecks';

const FACE_TEXT = {
  likely_same: 'likely the same person',
  differ: 'faces differ',
  no_face_on_id: 'no face found on the ID',
  no_face_on_screenshot: 'no face found on the face screenshot',
  unavailable: 'face match not available',
} as const;

function summary(check: MachineCheck): string {
  if (check.status !== 'done' || !check.result) return 'the check could not run';
  if (check.kind === 'face_match') {
    const r = check.result;
    const similarity = r.similarity === null ? '' : ` (similarity ${r.similarity.toFixed(2)})`;
    return `${FACE_TEXT[r.outcome]}${similarity}, threshold ${r.threshold.toFixed(2)}`;
  }
  const r = check.result;
  if (r.outcome !== 'read' || !r.reading)
    return r.outcome === 'not_found' ? 'no MRZ found' : 'OCR not available';
  const f = r.reading.fields;
  const wrong = Object.entries(r.reading.check_digits)
    .filter(([, holds]) => !holds)
    .map(([name]) => name);
  const cross = r.cross_checks.map((c) => `${c.field} ${c.result.replace('_', ' ')}`).join(', ');
  return [
    `${r.reading.format} read (OCR confidence ${r.ocr_confidence ?? 0} %)`,
    `document ${f.document_number ?? '?'}, ${f.last_name ?? '?'}, ${f.first_names ?? '?'}, born ${f.birth_date ?? '?'}`,
    `nationality ${f.nationality ?? '?'}, expires ${f.expiry_date ?? '?'}${r.reading.expired ? ' (EXPIRED)' : ''}`,
    wrong.length ? `check digits WRONG: ${wrong.join(', ')}` : 'check digits hold',
    ...r.reading.corrected.map((c) => `corrected: ${c}`),
    `cross-checks: ${cross}`,
  ].join('; ');
}

/** One line per check, in the order they ended; hints, which the report says. */
export function machineCheckLines(checks: MachineCheck[]): { label: string; value: string }[] {
  if (checks.length === 0) return [{ label: '-', value: 'None run' }];
  return checks.map((check) => ({
    label: `${check.kind === 'face_match' ? 'Face match' : 'MRZ'} at ${check.finished_at ?? check.created_at}`,
    value: `${summary(check)}; screenshots ${check.screenshots.join(', ')}; ${check.engine.name} ${check.engine.version}. A hint, not a decision.`,
  }));
}
