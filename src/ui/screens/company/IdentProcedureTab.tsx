import {
  Button,
  Callout,
  Card,
  Classes,
  FormGroup,
  H4,
  H5,
  HTMLSelect,
  InputGroup,
  Intent,
  Spinner,
  Switch,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type IdentProcedure,
  PROCEDURE_LIMITS,
  type ProcedureStep,
  SECURITY_FEATURE_CATEGORIES,
  type StepKind,
} from '#contract/identProcedure';
import { VERSION_CONFLICT } from '#contract/versioning';
import { failureOf } from '../../../machines/failure';
import {
  addQuestion,
  addReason,
  addStep,
  bodyOf,
  canMove,
  canRemove,
  canToggleMandatory,
  type Draft,
  defaultDraft,
  draftOf,
  editQuestion,
  editReason,
  missingKinds,
  moveStep,
  type ReasonList,
  removeQuestion,
  removeReason,
  removeStep,
  toggleMandatory,
  updateStep,
} from '../../../machines/identProcedureDraft';
import {
  getIdentProcedure,
  identProcedureKeys,
  saveIdentProcedure,
} from '../../../services/api/identProcedure';
import { useActiveAccount } from '../../app/useAccounts';
import { Alert } from '../../components/Dialog';
import { showSuccess } from '../../toaster';

/** The tab's title, in the procedure's own namespace. */
export function IdentProcedureTabTitle() {
  const { t } = useTranslation('procedure');
  return <>{t('tab')}</>;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The identification procedure: Admins reorder, add and remove steps, set what each needs,
 * edit the question pool, the reasons and the consent text, and save (If-Match); others read it. The editing
 * rules are in machines/identProcedureDraft.ts; the server checks the result and its refusal shows here.
 */
export function IdentProcedureTab() {
  const { t } = useTranslation('procedure');
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const queryClient = useQueryClient();
  const key = [...identProcedureKeys.current(), account?.server ?? '', account?.company_id ?? 0];
  const current = useQuery({ queryKey: key, queryFn: ({ signal }) => getIdentProcedure({ signal }) });
  /** The Admin's unsaved draft (null: nothing changed, the server's procedure shows). */
  const [edited, setEdited] = useState<Draft | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const save = useMutation({
    mutationFn: ({ draft, version }: { draft: Draft; version: number; reset?: boolean }) =>
      saveIdentProcedure(bodyOf(draft), version),
    onSuccess: (answer, { reset }) => {
      queryClient.setQueryData(key, answer);
      setEdited(null);
      setConfirmReset(false);
      void showSuccess(t(reset ? 'resetDone' : 'saved'));
    },
    onError: () => setConfirmReset(false),
  });

  // Focus follows a moved step's button, so the keyboard can keep moving it.
  const focusAfterMove = useRef<string | null>(null);
  useEffect(() => {
    if (!focusAfterMove.current) return;
    const button = document.getElementById(focusAfterMove.current);
    focusAfterMove.current = null;
    if (button instanceof HTMLButtonElement && !button.disabled) button.focus();
  });

  if (current.isPending)
    return (
      <Card className="studio-settings-card">
        <Spinner size={24} aria-label={t('title')} />
      </Card>
    );
  if (current.isError)
    return (
      <Card className="studio-settings-card">
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('loadFailed')}{' '}
          <Button variant="minimal" text={t('retry')} onClick={() => void current.refetch()} />
        </Callout>
      </Card>
    );

  const procedure: IdentProcedure = current.data;
  const draft = edited ?? draftOf(procedure);
  const readOnly = !isAdmin || save.isPending;
  const change = (next: Draft) => {
    save.reset();
    setEdited(next);
  };
  const failure = save.isError ? failureOf(save.error) : null;
  const conflictCurrent =
    failure?.detail === VERSION_CONFLICT
      ? (failure.body as { current?: IdentProcedure })?.current
      : undefined;
  const move = (index: number, by: -1 | 1, kind: StepKind) => {
    const next = moveStep(draft, index, by);
    // Keep the focus on the same button, or on the other one at the end of the range.
    const target = canMove(next, index + by, by) ? by : (-by as -1 | 1);
    focusAfterMove.current = `procedure-${kind}-${target === -1 ? 'up' : 'down'}`;
    change(next);
  };

  return (
    <Card className="studio-settings-card studio-procedure">
      <H4>{t('title')}</H4>
      <p>{t('intro')}</p>
      {procedure.is_default && <p className={Classes.TEXT_MUTED}>{t('defaultNote')}</p>}
      {!isAdmin && (
        <Callout intent={Intent.PRIMARY} icon="lock">
          {t('adminOnly')}
        </Callout>
      )}

      <Switch
        className="studio-procedure-guided"
        label={t('guided')}
        checked={draft.guided}
        disabled={readOnly}
        onChange={() => change({ ...draft, guided: !draft.guided })}
      />
      <p className={Classes.TEXT_MUTED}>{t('guidedHint')}</p>

      <H5>{t('steps')}</H5>
      <ol className="studio-procedure-steps" aria-label={t('steps')}>
        {draft.steps.map((step, index) => (
          <StepRow
            key={step.kind}
            step={step}
            number={index + 1}
            readOnly={readOnly}
            canUp={canMove(draft, index, -1)}
            canDown={canMove(draft, index, 1)}
            onMove={(by) => move(index, by, step.kind)}
            onToggle={() => change(toggleMandatory(draft, index))}
            onRemove={() => change(removeStep(draft, index))}
            onChange={(next) => change(updateStep(draft, index, () => next))}
            onAddQuestion={() => change(addQuestion(draft, index))}
            onRemoveQuestion={(q) => change(removeQuestion(draft, index, q))}
            onEditQuestion={(q, field, value) => change(editQuestion(draft, index, q, field, value))}
          />
        ))}
      </ol>
      {isAdmin && missingKinds(draft).length > 0 && (
        <AddStep
          kinds={missingKinds(draft)}
          disabled={readOnly}
          onAdd={(kind) => change(addStep(draft, kind))}
        />
      )}

      <H5>{t('consentText')}</H5>
      <div className="studio-procedure-pair">
        {(['en', 'tr'] as const).map((lng) => (
          <FormGroup
            key={lng}
            label={t(lng === 'en' ? 'consentEn' : 'consentTr')}
            labelFor={`procedure-consent-${lng}`}
          >
            <TextArea
              id={`procedure-consent-${lng}`}
              fill
              rows={5}
              maxLength={PROCEDURE_LIMITS.consentText}
              value={draft.consent_text[lng]}
              readOnly={readOnly}
              onChange={(event) =>
                change({ ...draft, consent_text: { ...draft.consent_text, [lng]: event.target.value } })
              }
            />
          </FormGroup>
        ))}
      </div>

      {(['abort_reasons', 'decision_reasons'] as const).map((list) => (
        <ReasonEditor
          key={list}
          list={list}
          draft={draft}
          readOnly={readOnly}
          onEdit={(index, field, value) => change(editReason(draft, list, index, field, value))}
          onRemove={(index) => change(removeReason(draft, list, index))}
          onAdd={() => change(addReason(draft, list))}
        />
      ))}

      {failure && (
        <Callout intent={Intent.DANGER} icon="error" role="alert" data-testid="procedure-error">
          {t('saveFailed', { detail: failure.detail })}
          {conflictCurrent && (
            <div>
              <Button
                variant="minimal"
                text={t('loadCurrent')}
                onClick={() => {
                  queryClient.setQueryData(key, conflictCurrent);
                  setEdited(null);
                  save.reset();
                }}
              />
            </div>
          )}
        </Callout>
      )}
      {isAdmin && (
        <div className="studio-procedure-actions">
          <Button
            intent={Intent.PRIMARY}
            text={t('save')}
            disabled={edited === null}
            loading={save.isPending && !confirmReset}
            onClick={() => edited && save.mutate({ draft: edited, version: procedure.version })}
          />
          {edited !== null && (
            <>
              <Button
                text={t('discard')}
                disabled={save.isPending}
                onClick={() => change(draftOf(procedure))}
              />
              <Tag minimal intent={Intent.WARNING}>
                {t('unsaved')}
              </Tag>
            </>
          )}
          <Button
            className="studio-procedure-reset"
            icon="reset"
            text={t('reset')}
            disabled={save.isPending}
            onClick={() => setConfirmReset(true)}
          />
        </div>
      )}
      <Alert
        isOpen={confirmReset}
        intent={Intent.WARNING}
        icon="reset"
        confirmButtonText={t('resetConfirm')}
        cancelButtonText={t('cancel')}
        loading={save.isPending}
        onConfirm={() => save.mutate({ draft: defaultDraft(), version: procedure.version, reset: true })}
        onCancel={() => setConfirmReset(false)}
      >
        <H4>{t('resetTitle')}</H4>
        <p>{t('resetBody')}</p>
      </Alert>
    </Card>
  );
}

function StepRow({
  step,
  number,
  readOnly,
  canUp,
  canDown,
  onMove,
  onToggle,
  onRemove,
  onChange,
  onAddQuestion,
  onRemoveQuestion,
  onEditQuestion,
}: {
  step: ProcedureStep;
  number: number;
  readOnly: boolean;
  canUp: boolean;
  canDown: boolean;
  onMove: (by: -1 | 1) => void;
  onToggle: () => void;
  onRemove: () => void;
  onChange: (step: ProcedureStep) => void;
  onAddQuestion: () => void;
  onRemoveQuestion: (index: number) => void;
  onEditQuestion: (index: number, field: 'text' | 'text_tr', value: string) => void;
}) {
  const { t } = useTranslation('procedure');
  const name = t(`kinds.${step.kind}`);
  const id = `procedure-${step.kind}`;
  return (
    <li className="studio-procedure-step" data-testid={id} aria-labelledby={`${id}-title`}>
      <div className="studio-procedure-step-head">
        <strong id={`${id}-title`}>{t('step', { number, name })}</strong>
        <Switch
          label={t('mandatory')}
          checked={step.mandatory}
          disabled={readOnly || !canToggleMandatory(step)}
          onChange={onToggle}
          aria-label={`${t('mandatory')}: ${name}`}
        />
        <span className="studio-procedure-step-buttons">
          <Button
            id={`${id}-up`}
            icon="arrow-up"
            variant="minimal"
            aria-label={t('moveUp', { name })}
            title={t('moveUp', { name })}
            disabled={readOnly || !canUp}
            onClick={() => onMove(-1)}
          />
          <Button
            id={`${id}-down`}
            icon="arrow-down"
            variant="minimal"
            aria-label={t('moveDown', { name })}
            title={t('moveDown', { name })}
            disabled={readOnly || !canDown}
            onClick={() => onMove(1)}
          />
          <Button
            icon="trash"
            variant="minimal"
            intent={Intent.DANGER}
            aria-label={t('remove', { name })}
            title={t('remove', { name })}
            disabled={readOnly || !canRemove(step)}
            onClick={onRemove}
          />
        </span>
      </div>
      <p className={Classes.TEXT_MUTED}>{t(`hints.${step.kind}`)}</p>
      {step.kind === 'security_features' && (
        <FormGroup inline label={t('minCategories')} labelFor={`${id}-min`}>
          <HTMLSelect
            id={`${id}-min`}
            value={step.min_categories}
            disabled={readOnly}
            options={range(1, SECURITY_FEATURE_CATEGORIES.length)}
            onChange={(event) => onChange({ ...step, min_categories: Number(event.target.value) })}
          />
        </FormGroup>
      )}
      {step.kind === 'second_channel_code' && (
        <div className="studio-procedure-inline">
          <FormGroup inline label={t('channel')} labelFor={`${id}-channel`}>
            <HTMLSelect
              id={`${id}-channel`}
              value={step.channel}
              disabled={readOnly}
              options={[
                { value: 'email', label: t('channels.email') },
                { value: 'sms', label: t('channels.sms') },
              ]}
              onChange={(event) =>
                onChange({ ...step, channel: event.target.value === 'sms' ? 'sms' : 'email' })
              }
            />
          </FormGroup>
          <FormGroup inline label={t('maxTries')} labelFor={`${id}-tries`}>
            <HTMLSelect
              id={`${id}-tries`}
              value={step.max_tries}
              disabled={readOnly}
              options={range(1, PROCEDURE_LIMITS.maxTries)}
              onChange={(event) => onChange({ ...step, max_tries: Number(event.target.value) })}
            />
          </FormGroup>
        </div>
      )}
      {step.kind === 'questions' && (
        <>
          <FormGroup inline label={t('count')} labelFor={`${id}-count`}>
            <HTMLSelect
              id={`${id}-count`}
              value={step.count}
              disabled={readOnly}
              options={range(1, Math.max(1, Math.min(PROCEDURE_LIMITS.questionsDrawn, step.pool.length)))}
              onChange={(event) => onChange({ ...step, count: Number(event.target.value) })}
            />
          </FormGroup>
          <fieldset className="studio-procedure-pool">
            <legend>{t('pool')}</legend>
            {step.pool.map((question, q) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: questions have no id; the position is the identity
              <div className="studio-procedure-pair" key={q}>
                <InputGroup
                  aria-label={t('questionEn', { number: q + 1 })}
                  placeholder={t('questionEn', { number: q + 1 })}
                  value={question.text}
                  maxLength={PROCEDURE_LIMITS.questionText}
                  readOnly={readOnly}
                  onValueChange={(value) => onEditQuestion(q, 'text', value)}
                />
                <InputGroup
                  aria-label={t('questionTr', { number: q + 1 })}
                  placeholder={t('questionTr', { number: q + 1 })}
                  value={question.text_tr ?? ''}
                  maxLength={PROCEDURE_LIMITS.questionText}
                  readOnly={readOnly}
                  onValueChange={(value) => onEditQuestion(q, 'text_tr', value)}
                  rightElement={
                    <Button
                      icon="cross"
                      variant="minimal"
                      aria-label={t('removeQuestion', { number: q + 1 })}
                      title={t('removeQuestion', { number: q + 1 })}
                      disabled={readOnly || step.pool.length <= 1}
                      onClick={() => onRemoveQuestion(q)}
                    />
                  }
                />
              </div>
            ))}
            {!readOnly && step.pool.length < PROCEDURE_LIMITS.questions && (
              <Button icon="add" variant="minimal" text={t('addQuestion')} onClick={onAddQuestion} />
            )}
          </fieldset>
        </>
      )}
    </li>
  );
}

function AddStep({
  kinds,
  disabled,
  onAdd,
}: {
  kinds: StepKind[];
  disabled: boolean;
  onAdd: (kind: StepKind) => void;
}) {
  const { t } = useTranslation('procedure');
  const [chosen, setChosen] = useState<StepKind | ''>('');
  const kind = chosen && kinds.includes(chosen) ? chosen : kinds[0];
  return (
    <FormGroup inline label={t('addStepLabel')} labelFor="procedure-add-kind">
      <HTMLSelect
        id="procedure-add-kind"
        value={kind}
        disabled={disabled}
        options={kinds.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
        onChange={(event) => setChosen(event.target.value as StepKind)}
      />{' '}
      <Button
        icon="add"
        text={t('addStep')}
        disabled={disabled || !kind}
        onClick={() => kind && onAdd(kind)}
      />
    </FormGroup>
  );
}

function ReasonEditor({
  list,
  draft,
  readOnly,
  onEdit,
  onRemove,
  onAdd,
}: {
  list: ReasonList;
  draft: Draft;
  readOnly: boolean;
  onEdit: (index: number, field: 'en' | 'tr', value: string) => void;
  onRemove: (index: number) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation('procedure');
  const reasons = draft[list];
  const title = list === 'abort_reasons' ? t('abortReasons') : t('decisionReasons');
  return (
    <fieldset className="studio-procedure-reasons" data-testid={`procedure-${list}`}>
      <legend>
        <H5>{title}</H5>
      </legend>
      <p className={Classes.TEXT_MUTED}>
        {list === 'abort_reasons' ? t('abortReasonsHelp') : t('decisionReasonsHelp')}
      </p>
      {reasons.map((reason, index) => (
        <div className="studio-procedure-pair" key={reason.id}>
          <InputGroup
            aria-label={t('reasonEn', { id: reason.id })}
            value={reason.en}
            maxLength={PROCEDURE_LIMITS.reasonLabel}
            readOnly={readOnly}
            leftElement={<Tag minimal>{reason.id}</Tag>}
            onValueChange={(value) => onEdit(index, 'en', value)}
          />
          <InputGroup
            aria-label={t('reasonTr', { id: reason.id })}
            value={reason.tr}
            maxLength={PROCEDURE_LIMITS.reasonLabel}
            readOnly={readOnly}
            onValueChange={(value) => onEdit(index, 'tr', value)}
            rightElement={
              <Button
                icon="cross"
                variant="minimal"
                aria-label={t('removeReason', { id: reason.id })}
                title={t('removeReason', { id: reason.id })}
                disabled={readOnly || reasons.length <= 1}
                onClick={() => onRemove(index)}
              />
            }
          />
        </div>
      ))}
      {!readOnly && reasons.length < PROCEDURE_LIMITS.reasons && (
        <Button icon="add" variant="minimal" text={t('addReason')} onClick={onAdd} />
      )}
    </fieldset>
  );
}
