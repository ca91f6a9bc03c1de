import { Button, ButtonGroup, Callout, Card, Checkbox, H3, Icon, Intent, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  isScreenshotStep,
  type ProcedureQuestion,
  type ProcedureStep,
  type ScreenshotStep,
  SECURITY_FEATURE_CATEGORIES,
} from '#contract/identProcedure';
import {
  type identStepsMachine,
  mayPass,
  missingSteps,
  NO_VIDEO,
  RECORD_FAILED,
  SHOT_FAILED,
  shotsMissing,
} from '../../../machines/identSteps.machine';
import { callLang } from '../../components/useCallEntries';
import { CustomerEntry } from './CustomerEntry';
import { StepHints } from './StepHints';

export type StepsRef = ActorRefFrom<typeof identStepsMachine>;

/**
 * The guided procedure beside the video: the steps in order, the current one with what to
 * ask and capture (screenshots of the customer's video while the call is live), and Passed / Failed. The rules
 * are the identSteps machine's; this only shows them.
 */
export function StepsPanel({
  steps,
  closed,
  live,
  callId,
}: {
  steps: StepsRef;
  closed: boolean;
  live: boolean;
  callId: number;
}) {
  const { t } = useTranslation('calls');
  const { t: tp } = useTranslation('procedure');
  const snapshot = useSelector(steps, (s) => s);
  const { context } = snapshot;
  const busy = !snapshot.matches('ready');
  const mandatory = context.steps.filter((s) => s.mandatory).length;
  const missing = missingSteps(context);
  return (
    <Card className="studio-call-steps">
      <H3 id="call-steps-title">{t('guide.title')}</H3>
      <p className="studio-muted">
        {t('guide.progress', { done: mandatory - missing.length, total: mandatory })}
      </p>
      <ol className="studio-call-step-list" aria-labelledby="call-steps-title">
        {context.steps.map((step, index) => {
          const current = index === context.current;
          const result = context.results[step.kind];
          const name = tp(`kinds.${step.kind}`);
          return (
            <li
              key={step.kind}
              className={current ? 'studio-call-step is-current' : 'studio-call-step'}
              aria-current={current ? 'step' : undefined}
            >
              <div className="studio-call-step-head">
                <Button
                  variant="minimal"
                  alignText="start"
                  text={t('guide.step', { number: index + 1, name })}
                  onClick={() => steps.send({ type: 'SELECT', index })}
                  disabled={busy || closed}
                />
                {!step.mandatory && (
                  <Tag minimal round>
                    {t('guide.optional')}
                  </Tag>
                )}
                <Tag
                  round
                  minimal={!result}
                  intent={
                    result === 'passed' ? Intent.SUCCESS : result === 'failed' ? Intent.DANGER : Intent.NONE
                  }
                >
                  {t(`guide.results.${result ?? 'open'}`)}
                </Tag>
              </div>
              {current && !closed && (
                <CurrentStep steps={steps} step={step} name={name} busy={busy} live={live} callId={callId} />
              )}
            </li>
          );
        })}
      </ol>
      {missing.length === 0 && (
        <Callout intent={Intent.SUCCESS} icon="tick-circle">
          {t('guide.allPassed')}
        </Callout>
      )}
    </Card>
  );
}

const ERRORS: Record<string, 'guide.recordFailed' | 'guide.shotFailed' | 'guide.noVideo'> = {
  [RECORD_FAILED]: 'guide.recordFailed',
  [SHOT_FAILED]: 'guide.shotFailed',
  [NO_VIDEO]: 'guide.noVideo',
};

function CurrentStep({
  steps,
  step,
  name,
  busy,
  live,
  callId,
}: {
  steps: StepsRef;
  step: ProcedureStep;
  name: string;
  busy: boolean;
  live: boolean;
  callId: number;
}) {
  const { t } = useTranslation('calls');
  const context = useSelector(steps, (s) => s.context);
  const recording = useSelector(steps, (s) => s.matches('recording'));
  const min = step.kind === 'security_features' ? step.min_categories : 0;
  return (
    <div className="studio-call-step-body">
      <p>{t(`guide.asks.${step.kind as 'consent'}`, { min })}</p>
      {step.kind === 'security_features' && (
        <fieldset className="studio-call-step-checks">
          <legend>{t('guide.categoriesLabel')}</legend>
          {SECURITY_FEATURE_CATEGORIES.map((category) => (
            <Checkbox
              key={category}
              label={t(`guide.categories.${category}`)}
              checked={context.categories.includes(category)}
              disabled={busy}
              onChange={() => steps.send({ type: 'CATEGORY.TOGGLE', category })}
            />
          ))}
          <small className="studio-muted">
            {t('guide.categoriesCount', { count: context.categories.length, min })}
          </small>
        </fieldset>
      )}
      {step.kind === 'questions' && (
        <ol className="studio-call-step-questions">
          {context.drawn.map((question, index) => (
            <DrawnQuestion
              key={question.text}
              question={question}
              index={index}
              mark={context.marks[index] ?? null}
              disabled={busy}
              onMark={(mark) => steps.send({ type: 'QUESTION.MARK', index, mark })}
            />
          ))}
        </ol>
      )}
      {isScreenshotStep(step.kind) && (
        <Screenshots steps={steps} kind={step.kind} name={name} busy={busy} live={live} />
      )}
      {isScreenshotStep(step.kind) && <StepHints callId={callId} kind={step.kind} steps={steps} />}
      {(step.kind === 'serial_number' || step.kind === 'second_channel_code') && (
        <CustomerEntry callId={callId} kind={step.kind} result={context.results[step.kind]} />
      )}
      {context.error && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {ERRORS[context.error] ? t(ERRORS[context.error] as 'guide.recordFailed') : context.error}
        </Callout>
      )}
      <div className="studio-actions">
        <Button
          intent={Intent.SUCCESS}
          icon="tick"
          text={t('guide.pass')}
          aria-label={t('guide.passStep', { name })}
          disabled={busy || !mayPass(context)}
          loading={recording && busy}
          onClick={() => steps.send({ type: 'PASS' })}
        />
        <Button
          intent={Intent.DANGER}
          icon="cross"
          text={t('guide.fail')}
          aria-label={t('guide.failStep', { name })}
          disabled={busy}
          onClick={() => steps.send({ type: 'FAIL' })}
        />
      </div>
    </div>
  );
}

/** The screenshots of the current step: the button that takes one, how many it has and needs, thumbnails. */
function Screenshots({
  steps,
  kind,
  name,
  busy,
  live,
}: {
  steps: StepsRef;
  kind: ScreenshotStep;
  name: string;
  busy: boolean;
  live: boolean;
}) {
  const { t } = useTranslation('calls');
  const shots = useSelector(steps, (s) => s.context.shots[kind] ?? []);
  const missing = useSelector(steps, (s) => shotsMissing(s.context));
  const shooting = useSelector(steps, (s) => s.matches('shooting'));
  return (
    <div className="studio-call-step-shots">
      <div className="studio-actions">
        <Button
          icon="camera"
          text={t('guide.shoot')}
          aria-label={t('guide.shootStep', { name })}
          disabled={busy || !live}
          loading={shooting}
          onClick={() => steps.send({ type: 'SHOOT' })}
        />
        <small className="studio-muted" aria-live="polite">
          {t('guide.shotsCount', { count: shots.length, needed: shots.length + missing })}
        </small>
      </div>
      {!live && <small className="studio-muted">{t('guide.shootOver')}</small>}
      {shots.length > 0 && (
        <ul className="studio-call-step-thumbs" aria-label={t('guide.shotsLabel', { name })}>
          {shots.map((shot, index) =>
            shot.preview ? (
              <li key={shot.id}>
                <img src={shot.preview} alt={t('guide.shotAlt', { number: index + 1, name })} />
              </li>
            ) : (
              <li key={shot.id} className="is-stored">
                <Icon icon="media" title={t('guide.shotStored', { number: index + 1 })} />
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}

function DrawnQuestion({
  question,
  index,
  mark,
  disabled,
  onMark,
}: {
  question: ProcedureQuestion;
  index: number;
  mark: 'passed' | 'failed' | null;
  disabled: boolean;
  onMark: (mark: 'passed' | 'failed') => void;
}) {
  const { t, i18n } = useTranslation('calls');
  const text = callLang(i18n.language) === 'TR' ? (question.text_tr ?? question.text) : question.text;
  const label = t('guide.question', { number: index + 1 });
  return (
    <li>
      <span>{text}</span>
      <ButtonGroup role="group" aria-label={label}>
        {(['passed', 'failed'] as const).map((value) => (
          <Button
            key={value}
            size="small"
            icon={value === 'passed' ? 'tick' : 'cross'}
            intent={mark === value ? (value === 'passed' ? Intent.SUCCESS : Intent.DANGER) : Intent.NONE}
            active={mark === value}
            aria-pressed={mark === value}
            disabled={disabled}
            text={t(`guide.results.${value}`)}
            aria-label={`${label}: ${t(`guide.results.${value}`)}`}
            onClick={() => onMark(value)}
          />
        ))}
      </ButtonGroup>
    </li>
  );
}
