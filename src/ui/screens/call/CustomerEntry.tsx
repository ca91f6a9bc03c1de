import { Button, Callout, Intent } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CallStep, StepKind } from '#contract/identProcedure';
import { isApiError } from '../../../services/api/http';
import { getCallSteps, sendCallCode } from '../../../services/api/identProcedure';

/** The latest result the customer's own entry recorded for that step (`created_by` null), if any. */
function useCustomerResult(callId: number, kind: StepKind, result: string | undefined) {
  const steps = useQuery({
    // The step's latest result is in the key: a new one (from the customer's entry) reads the list again.
    queryKey: ['callSteps', callId, kind, result ?? 'open'],
    queryFn: ({ signal }) => getCallSteps(callId, { signal }),
  });
  return steps.data?.filter((s) => s.kind === kind && s.created_by === null).at(-1) ?? null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * What the customer typed on their page for the step shown: the serial number with the server's
 * comparison, or the second-channel code, which the agent sends from here.
 */
export function CustomerEntry({
  callId,
  kind,
  result,
}: {
  callId: number;
  kind: 'serial_number' | 'second_channel_code';
  result: string | undefined;
}) {
  const entry = useCustomerResult(callId, kind, result);
  return kind === 'serial_number' ? (
    <SerialEntry entry={entry} />
  ) : (
    <CodeEntry callId={callId} entry={entry} />
  );
}

function SerialEntry({ entry }: { entry: CallStep | null }) {
  const { t } = useTranslation('calls');
  if (!entry) return <p className="studio-muted">{t('guide.entry.serialWaiting')}</p>;
  const matches = entry.details.matches === true;
  return (
    <Callout
      intent={matches ? Intent.SUCCESS : Intent.WARNING}
      icon={matches ? 'tick-circle' : 'warning-sign'}
    >
      <p>
        {t('guide.entry.serialTyped')}{' '}
        <strong className="studio-call-typed">{text(entry.details.typed)}</strong>
      </p>
      {matches
        ? t('guide.entry.serialMatches')
        : t('guide.entry.serialNoMatch', { count: Number(entry.details.numbers_on_file) || 0 })}
    </Callout>
  );
}

function CodeEntry({ callId, entry }: { callId: number; entry: CallStep | null }) {
  const { t } = useTranslation('calls');
  const send = useMutation({ mutationFn: () => sendCallCode(callId) });
  const sent = send.data;
  return (
    <div className="studio-call-step-entry" aria-live="polite">
      {entry?.result === 'passed' ? (
        <Callout intent={Intent.SUCCESS} icon="tick-circle">
          {t('guide.entry.codeRight')}
        </Callout>
      ) : entry?.result === 'failed' ? (
        <Callout intent={Intent.WARNING} icon="warning-sign">
          {t('guide.entry.codeSpent')}
        </Callout>
      ) : sent ? (
        <p>
          {t('guide.entry.codeSent', { channel: t(`guide.entry.channels.${sent.channel}`), to: sent.to })}
        </p>
      ) : null}
      {send.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {isApiError(send.error) ? send.error.detail : t('guide.recordFailed')}
        </Callout>
      )}
      {entry?.result !== 'passed' && (
        <Button
          icon="envelope"
          text={sent || entry ? t('guide.entry.resendCode') : t('guide.entry.sendCode')}
          loading={send.isPending}
          onClick={() => send.mutate()}
        />
      )}
    </div>
  );
}
