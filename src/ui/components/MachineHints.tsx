import { Button, Callout, H3, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  Agreement,
  FaceMatchResult,
  MachineCheck,
  MachineCheckKind,
  MrzReading,
  MrzResult,
} from '#contract/machineChecks';
import { getCallChecks, machineCheckKeys } from '../../services/api/machineChecks';

const FACE_INTENT: Record<FaceMatchResult['outcome'], Intent> = {
  likely_same: Intent.SUCCESS,
  differ: Intent.DANGER,
  no_face_on_id: Intent.WARNING,
  no_face_on_screenshot: Intent.WARNING,
  unavailable: Intent.NONE,
};

const AGREEMENT_INTENT: Record<Agreement, Intent> = {
  agrees: Intent.SUCCESS,
  differs: Intent.DANGER,
  not_read: Intent.NONE,
};

const READ_FIELDS = [
  'document_number',
  'last_name',
  'first_names',
  'birth_date',
  'nationality',
  'sex',
  'expiry_date',
  'issuing_state',
] as const;

/** The latest check of a kind: a new screenshot runs it again, and the last run is the one that counts. */
export const latestCheck = <K extends MachineCheckKind>(checks: MachineCheck[], kind: K) =>
  checks.filter((c): c is Extract<MachineCheck, { kind: K }> => c.kind === kind).at(-1);

/**
 * What the machine checks found, beside the agent's steps and on the reviewer's call page: the face match's
 * hint with its similarity, the MRZ's fields, check digits and expiry, and each cross-check with the profile.
 * Hints only: every text says what the machine saw, never what to decide.
 */
export function MachineHints({
  checks,
  kinds,
}: {
  checks: MachineCheck[];
  kinds: readonly MachineCheckKind[];
}) {
  const face = kinds.includes('face_match') ? latestCheck(checks, 'face_match') : undefined;
  const mrz = kinds.includes('mrz') ? latestCheck(checks, 'mrz') : undefined;
  if (!face && !mrz) return null;
  return (
    <div className="studio-machine-hints" data-testid="machine-hints">
      {face && <FaceHint check={face} />}
      {mrz && (
        <div data-testid="mrz-check">
          <MrzHint check={mrz} />
        </div>
      )}
    </div>
  );
}

function Failed() {
  const { t } = useTranslation('calls');
  return (
    <Callout intent={Intent.WARNING} icon="warning-sign">
      {t('checks.failed')}
    </Callout>
  );
}

function Engine({ check }: { check: MachineCheck }) {
  const { t } = useTranslation('calls');
  return (
    <small className="studio-muted">
      {t('checks.engine', { name: check.engine.name, version: check.engine.version })}
    </small>
  );
}

function FaceHint({ check }: { check: Extract<MachineCheck, { kind: 'face_match' }> }) {
  const { t } = useTranslation('calls');
  const result = check.result;
  if (check.status !== 'done' || !result) return <Failed />;
  const similarity = result.similarity?.toFixed(2) ?? '';
  return (
    <Callout
      intent={FACE_INTENT[result.outcome]}
      icon="person"
      title={t(`checks.face.${result.outcome}`, { similarity })}
      data-testid="face-hint"
    >
      <p>{t('checks.face.threshold', { threshold: result.threshold.toFixed(2) })}</p>
      <Engine check={check} />
    </Callout>
  );
}

function fieldValue(reading: MrzReading, field: (typeof READ_FIELDS)[number]): string {
  return reading.fields[field] ?? '—';
}

function MrzHint({ check }: { check: Extract<MachineCheck, { kind: 'mrz' }> }) {
  const { t } = useTranslation('calls');
  const result: MrzResult | null = check.result;
  if (check.status !== 'done' || !result) return <Failed />;
  const reading = result.reading;
  if (result.outcome !== 'read' || !reading)
    return (
      <Callout intent={Intent.WARNING} icon="id-number" title={t(`checks.mrz.${result.outcome}`)}>
        <Engine check={check} />
      </Callout>
    );
  const wrong = Object.entries(reading.check_digits)
    .filter(([, holds]) => !holds)
    .map(([field]) => t(`checks.digits.${field as keyof MrzReading['check_digits']}`));
  return (
    <Callout
      intent={wrong.length > 0 || reading.expired ? Intent.DANGER : Intent.PRIMARY}
      icon="id-number"
      title={t('checks.mrz.read', { format: reading.format, confidence: result.ocr_confidence ?? 0 })}
      data-testid="mrz-hint"
    >
      <p className="studio-machine-hints-tags">
        <Tag intent={wrong.length > 0 ? Intent.DANGER : Intent.SUCCESS} round>
          {wrong.length > 0 ? t('checks.digitsWrong', { fields: wrong.join(', ') }) : t('checks.digitsHold')}
        </Tag>{' '}
        <Tag intent={reading.expired === false ? Intent.SUCCESS : Intent.DANGER} round>
          {reading.expired === null
            ? t('checks.expiryUnknown')
            : t(reading.expired ? 'checks.expired' : 'checks.valid', { date: reading.fields.expiry_date })}
        </Tag>
      </p>
      {reading.corrected.length > 0 && (
        <p>
          <Tag intent={Intent.WARNING} round>
            {t('checks.corrected', { what: reading.corrected.join('; ') })}
          </Tag>
        </p>
      )}
      <HTMLTable compact className="studio-machine-hints-table">
        <caption>{t('checks.readTitle')}</caption>
        <tbody>
          {READ_FIELDS.map((field) => (
            <tr key={field}>
              <th scope="row">{t(`checks.fields.${field}`)}</th>
              <td>
                <code>{fieldValue(reading, field)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <HTMLTable compact className="studio-machine-hints-table">
        <caption>{t('checks.crossTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('checks.columns.field')}</th>
            <th scope="col">{t('checks.columns.read')}</th>
            <th scope="col">{t('checks.columns.onFile')}</th>
            <th scope="col">{t('checks.columns.result')}</th>
          </tr>
        </thead>
        <tbody>
          {result.cross_checks.map((cross) => (
            <tr key={cross.field} data-field={cross.field}>
              <th scope="row">{t(`checks.fields.${cross.field}`)}</th>
              <td>{cross.read ?? '—'}</td>
              <td>{cross.on_file ?? '—'}</td>
              <td>
                <Tag minimal intent={AGREEMENT_INTENT[cross.result]}>
                  {t(`checks.agreement.${cross.result}`)}
                </Tag>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <Engine check={check} />
    </Callout>
  );
}

/** The reviewer's view of a call's machine checks (its call page): the same hints the agent saw. */
export function CallChecks({ callId }: { callId: number }) {
  const { t } = useTranslation('calls');
  const checks = useQuery({
    queryKey: machineCheckKeys.call(callId),
    queryFn: ({ signal }) => getCallChecks(callId, { signal }),
  });
  return (
    <section aria-labelledby="call-checks-title" className="studio-call-checks">
      <H3 id="call-checks-title">{t('checks.title')}</H3>
      {checks.isPending && <Spinner size={20} />}
      {checks.isError && (
        <Callout intent={Intent.DANGER} title={t('checks.loadFailed')}>
          <Button icon="refresh" text={t('tab.retry')} onClick={() => checks.refetch()} />
        </Callout>
      )}
      {checks.data?.length === 0 && <p className="studio-muted">{t('checks.none')}</p>}
      {!!checks.data?.length && (
        <>
          <p className="studio-muted">{t('checks.note')}</p>
          <MachineHints checks={checks.data} kinds={['face_match', 'mrz']} />
        </>
      )}
    </section>
  );
}
