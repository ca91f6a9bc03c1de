import { useMachine } from '@xstate/react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import type { CodeSent, EntryReply, StepKind } from '#contract/identProcedure';
import { type EntryKind, stepEntryMachine } from '../machines/stepEntry.machine';

type Enter = (kind: EntryKind, value: string) => Promise<EntryReply>;

/**
 * What the agent asks now in a guided call, in the customer's language: the instruction of
 * the step shown, and where the step needs it the serial number or the code to type.
 */
export function StepGuide({
  step,
  code,
  enter,
}: {
  step: StepKind | null;
  code: CodeSent | null;
  enter: Enter;
}) {
  const { t } = useTranslation('customer');
  if (!step) return null;
  return (
    <section className="customer-guide" aria-labelledby="customer-guide-title">
      <h2 id="customer-guide-title" className="customer-guide-title">
        {t('guide.title')}
      </h2>
      <p role="status" aria-live="polite" data-testid="step-instruction">
        {t(`guide.steps.${step}`)}
      </p>
      {step === 'serial_number' && <EntryForm kind="serial_number" enter={enter} />}
      {step === 'second_channel_code' &&
        (code ? (
          // A new code sent: a fresh entry (its tries are new).
          <EntryForm key={code.sent_at} kind="code" enter={enter} sent={code} />
        ) : (
          <p className="customer-muted">{t('guide.codeComing')}</p>
        ))}
    </section>
  );
}

function EntryForm({ kind, enter, sent }: { kind: EntryKind; enter: Enter; sent?: CodeSent }) {
  const { t } = useTranslation('customer');
  const id = useId();
  const machine = useMemo(
    () =>
      stepEntryMachine.provide({
        actors: { submit: fromPromise(({ input }) => enter(input.kind, input.value)) },
      }),
    [enter],
  );
  const [state, send] = useMachine(machine, { input: { kind } });
  const { value, problem, triesLeft } = state.context;
  const label = kind === 'code' ? t('guide.codeLabel') : t('guide.serialLabel');

  if (state.matches('sent'))
    return (
      <div className="customer-entry">
        <p role="status">{kind === 'code' ? t('guide.codeRight') : t('guide.serialSent')}</p>
        {kind === 'serial_number' && (triesLeft ?? 0) > 0 && (
          <button type="button" className="customer-link" onClick={() => send({ type: 'AGAIN' })}>
            {t('guide.serialAgain', { count: triesLeft ?? 0 })}
          </button>
        )}
      </div>
    );
  if (state.matches('spent'))
    return (
      <p className="customer-entry" role="alert">
        {t('guide.codeSpent')}
      </p>
    );
  return (
    <form
      className="customer-entry"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        send({ type: 'SUBMIT' });
      }}
    >
      {sent && <p>{t('guide.codeSent', { channel: t(`guide.channels.${sent.channel}`), to: sent.to })}</p>}
      <div className="customer-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={value}
          autoComplete={kind === 'code' ? 'one-time-code' : 'off'}
          inputMode={kind === 'code' ? 'numeric' : 'text'}
          maxLength={kind === 'code' ? 6 : 40}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => send({ type: 'CHANGE', value: event.target.value })}
        />
      </div>
      {problem && (
        <p id={`${id}-problem`} className="customer-problem" role="alert">
          {problem === 'wrongCode'
            ? t('guide.problems.wrongCode', { count: triesLeft ?? 0 })
            : t(`guide.problems.${problem}`)}
        </p>
      )}
      <button type="submit" className="customer-button" disabled={state.matches('sending')}>
        {state.matches('sending') ? t('guide.sending') : t('guide.send')}
      </button>
    </form>
  );
}
