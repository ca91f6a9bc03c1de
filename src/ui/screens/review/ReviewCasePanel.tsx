import './icons';
import './review.css';
import {
  Button,
  Callout,
  DialogBody,
  DialogFooter,
  FormGroup,
  H5,
  HTMLSelect,
  InputGroup,
  Intent,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  REVIEW_DECISIONS,
  type ReviewCase,
  type ReviewCaseDetail,
  type ReviewDecision,
} from '#contract/review';
import { profileDetailKeys } from '../../../services/api/profileDetail';
import {
  assignCase,
  awaitCustomer,
  confirmDecision,
  decideCase,
  getCase,
  resumeCase,
  returnDecision,
  reviewKeys,
  snoozeCase,
} from '../../../services/api/review';
import { useReviewLive } from '../../app/realtime/ProfileSocket';
import { useActiveAccount } from '../../app/useAccounts';
import { Dialog } from '../../components/Dialog';
import { useErrorText } from '../../components/useErrorText';
import { useFormat } from '../../format';
import { profileCasesQuery } from '../../queries';
import { showError, showSuccess } from '../../toaster';
import { CaseCallChecks } from './CaseCallChecks';
import {
  codesFor,
  decisionProblem,
  firstSnoozeDay,
  fourEyesRole,
  mayDecide,
  mayResume,
  maySnooze,
  mayTake,
  returnNoteProblem,
  snoozeMoment,
  snoozeValid,
} from './deskRules';
import {
  useNow,
  useQueues,
  useReasonCodes,
  useReasonLabel,
  useReviewers,
  useTimeLeftText,
  useViewer,
} from './useDesk';

/**
 * The profile's open review cases, for reviewers: state, queue, assignee, due; the assignee's (or an
 * Admin's) decision, snooze, await customer and resume; the four-eyes banner with Confirm and Return.
 */
export function ReviewCasePanel({ profileId }: { profileId: number }) {
  const account = useActiveAccount();
  if (!account?.permissions.includes('review_profiles')) return null;
  return <Cases profileId={profileId} />;
}

function Cases({ profileId }: { profileId: number }) {
  const { t } = useTranslation('review');
  useReviewLive();
  const cases = useQuery(profileCasesQuery(profileId, true));
  if (cases.isError)
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert" className="studio-review-panel">
        {t('panel.loadFailed')}{' '}
        <Button variant="minimal" icon="refresh" text={t('retry')} onClick={() => cases.refetch()} />
      </Callout>
    );
  const rows = cases.data?.results ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-label={t('panel.region')} className="studio-review-cases">
      {rows.map((c) => (
        <CaseCard key={c.id} summary={c} />
      ))}
    </section>
  );
}

/** After a write: the desk's lists and, when the profile's status may have moved, the profile. */
function useRefresh(profileId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profileId) });
  };
}

function CaseCard({ summary }: { summary: ReviewCase }) {
  const { t } = useTranslation('review');
  const me = useViewer();
  const now = useNow();
  const { dateTime } = useFormat();
  const queues = useQueues();
  const sla = queues.data?.find((q) => q.id === summary.queue)?.sla_hours;
  const due = useTimeLeftText()(summary, now, sla);
  const detail = useQuery({
    queryKey: reviewKeys.detail(summary.id),
    queryFn: ({ signal }) => getCase(summary.id, { signal }),
  });
  const c = detail.data ?? { ...summary, pending: null, timeline: [] };
  const refresh = useRefresh(c.profile);
  const errorText = useErrorText();
  const [dialog, setDialog] = useState<'decide' | 'snooze' | null>(null);
  const simple = useMutation({
    mutationFn: (action: 'take' | 'await' | 'resume') =>
      action === 'take' ? assignCase(c.id) : action === 'await' ? awaitCustomer(c.id) : resumeCase(c.id),
    onSuccess: (_after, action) => {
      refresh();
      void showSuccess(
        action === 'take'
          ? t('actions.taken')
          : action === 'await'
            ? t('panel.awaitedCustomer')
            : t('panel.resumed'),
      );
    },
    onError: (error) => {
      refresh();
      void showError(errorText(error));
    },
  });
  const last = c.timeline.at(-1);
  const returnedNote =
    c.state !== 'awaiting_second_review' && last?.kind === 'returned' && typeof last.data.note === 'string'
      ? last.data.note
      : null;
  const role = fourEyesRole(c, c.pending, me);

  return (
    <article className="studio-review-panel" data-case={c.id} aria-labelledby={`review-case-${c.id}`}>
      <H5 id={`review-case-${c.id}`}>{t('panel.title', { kind: t(`kind.${c.kind}`) })}</H5>
      <dl className="studio-review-facts">
        <div>
          <dt>{t('panel.state')}</dt>
          <dd>
            <Tag minimal intent={c.state === 'awaiting_second_review' ? Intent.PRIMARY : Intent.NONE}>
              {t(`state.${c.state}`)}
            </Tag>
          </dd>
        </div>
        <div>
          <dt>{t('panel.queue')}</dt>
          <dd>{c.queue_name}</dd>
        </div>
        <div>
          <dt>{t('panel.assignee')}</dt>
          <dd>{c.assignee_name ?? t('nobody')}</dd>
        </div>
        <div>
          <dt>{t('panel.due')}</dt>
          <dd>
            <Tag minimal={due.tone === 'stopped'} intent={due.intent} data-tone={due.tone}>
              {due.text}
            </Tag>{' '}
            <span className="studio-muted">{dateTime(c.due_at)}</span>
          </dd>
        </div>
      </dl>
      {c.state === 'snoozed' && c.snoozed_until && (
        <p className="studio-muted">{t('panel.snoozedUntil', { date: dateTime(c.snoozed_until) })}</p>
      )}
      {returnedNote && (
        <Callout intent={Intent.WARNING} icon="undo" className="studio-review-returned">
          {t('panel.returned', { note: returnedNote })}
        </Callout>
      )}
      <CaseCallChecks c={c} />
      {role !== 'none' && c.pending && <FourEyes detail={c} role={role} onDone={refresh} />}
      {c.state !== 'awaiting_second_review' && (
        <div className="studio-review-actions">
          {mayTake(c, me) && (
            <Button
              icon="hand-right"
              text={t('actions.take')}
              disabled={simple.isPending}
              onClick={() => simple.mutate('take')}
            />
          )}
          {mayDecide(c, me) ? (
            <>
              <Button
                intent={Intent.PRIMARY}
                icon="endorsed"
                text={t('panel.decide')}
                onClick={() => setDialog('decide')}
              />
              {maySnooze(c, me) && c.state !== 'snoozed' && (
                <Button icon="time" text={t('panel.snooze')} onClick={() => setDialog('snooze')} />
              )}
              {maySnooze(c, me) && c.state !== 'awaiting_customer' && (
                <Button
                  icon="pause"
                  text={t('panel.awaitCustomer')}
                  disabled={simple.isPending}
                  onClick={() => simple.mutate('await')}
                />
              )}
              {mayResume(c, me) && (
                <Button
                  icon="play"
                  text={t('panel.resume')}
                  disabled={simple.isPending}
                  onClick={() => simple.mutate('resume')}
                />
              )}
            </>
          ) : (
            <span className="studio-muted">{t('panel.onlyAssignee')}</span>
          )}
        </div>
      )}
      {dialog === 'decide' && <DecideDialog c={c} onClose={() => setDialog(null)} onDone={refresh} />}
      {dialog === 'snooze' && <SnoozeDialog c={c} onClose={() => setDialog(null)} onDone={refresh} />}
    </article>
  );
}

function FourEyes({
  detail,
  role,
  onDone,
}: {
  detail: ReviewCaseDetail;
  role: 'checker' | 'maker' | 'onlooker';
  onDone: () => void;
}) {
  const { t } = useTranslation('review');
  const reviewers = useReviewers();
  const codes = useReasonCodes();
  const label = useReasonLabel();
  const pending = detail.pending;
  const [dialog, setDialog] = useState<'confirm' | 'return' | null>(null);
  if (!pending) return null;
  const maker = reviewers.data?.find((r) => r.user === pending.maker)?.name ?? t('fourEyes.someone');
  const code = (codes.data ?? []).find(
    (c) => c.decision === pending.decision && c.code === pending.reason_code,
  );
  return (
    <Callout
      intent={Intent.PRIMARY}
      icon="eye-open"
      title={t('fourEyes.title')}
      className="studio-review-foureyes"
    >
      <p>{t('fourEyes.decision', { name: maker, decision: t(`decision.${pending.decision}`) })}</p>
      {pending.reason_code && (
        <p>{t('fourEyes.reason', { reason: code ? label(code) : pending.reason_code })}</p>
      )}
      {pending.note && <p>{t('fourEyes.note', { note: pending.note })}</p>}
      {role === 'maker' && <p className="studio-muted">{t('fourEyes.maker')}</p>}
      {role === 'onlooker' && <p className="studio-muted">{t('fourEyes.onlooker')}</p>}
      {role === 'checker' && (
        <div className="studio-review-actions">
          <Button
            intent={Intent.SUCCESS}
            icon="tick"
            text={t('fourEyes.confirm')}
            onClick={() => setDialog('confirm')}
          />
          <Button icon="undo" text={t('fourEyes.return')} onClick={() => setDialog('return')} />
        </div>
      )}
      {dialog && (
        <CheckDialog kind={dialog} caseId={detail.id} onClose={() => setDialog(null)} onDone={onDone} />
      )}
    </Callout>
  );
}

function CheckDialog({
  kind,
  caseId,
  onClose,
  onDone,
}: {
  kind: 'confirm' | 'return';
  caseId: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('review');
  const errorText = useErrorText();
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = kind === 'return' ? returnNoteProblem(note) : null;
  const run = useMutation({
    mutationFn: () => (kind === 'confirm' ? confirmDecision(caseId) : returnDecision(caseId, note.trim())),
    onSuccess: () => {
      onDone();
      void showSuccess(kind === 'confirm' ? t('fourEyes.confirmed') : t('fourEyes.returnedDone'));
      onClose();
    },
    onError: (error) => {
      onDone();
      void showError(errorText(error));
    },
  });
  return (
    <Dialog
      isOpen
      title={kind === 'confirm' ? t('fourEyes.confirmTitle') : t('fourEyes.returnTitle')}
      icon={kind === 'confirm' ? 'tick' : 'undo'}
      onClose={onClose}
    >
      <DialogBody>
        {kind === 'confirm' ? (
          <p>{t('fourEyes.confirmBody')}</p>
        ) : (
          <FormGroup
            label={t('fourEyes.returnNote')}
            labelFor="return-note"
            intent={touched && problem ? Intent.DANGER : Intent.NONE}
            helperText={touched && problem ? t(`decide.problem.${problem}`) : undefined}
          >
            <TextArea
              id="return-note"
              fill
              autoFocus
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              onBlur={() => setTouched(true)}
            />
          </FormGroup>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('fourEyes.cancel')} onClick={onClose} />
            <Button
              intent={kind === 'confirm' ? Intent.SUCCESS : Intent.PRIMARY}
              text={kind === 'confirm' ? t('fourEyes.confirm') : t('fourEyes.return')}
              autoFocus={kind === 'confirm'}
              loading={run.isPending}
              onClick={() => {
                setTouched(true);
                if (!problem) run.mutate();
              }}
            />
          </>
        }
      />
    </Dialog>
  );
}

function DecideDialog({ c, onClose, onDone }: { c: ReviewCase; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('review');
  const codes = useReasonCodes();
  const label = useReasonLabel();
  const errorText = useErrorText();
  const [decision, setDecision] = useState<ReviewDecision>('approve');
  const [reasonCode, setReasonCode] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const own = codesFor(decision, codes.data ?? []);
  const problem = decisionProblem({ decision, reasonCode, note }, codes.data ?? []);
  const run = useMutation({
    mutationFn: () => decideCase(c.id, { decision, reason_code: reasonCode, note: note.trim() || null }),
    onSuccess: (answer) => {
      onDone();
      void showSuccess(answer.second_review_required ? t('decide.waits') : t('decide.done'));
      onClose();
    },
    onError: (error) => {
      onDone();
      void showError(errorText(error));
    },
  });
  return (
    <Dialog isOpen title={t('decide.title')} icon="endorsed" onClose={onClose}>
      <DialogBody>
        <FormGroup label={t('decide.decision')} labelFor="decide-decision">
          <HTMLSelect
            id="decide-decision"
            fill
            value={decision}
            onChange={(event) => {
              setDecision(event.currentTarget.value as ReviewDecision);
              setReasonCode(null);
            }}
            options={REVIEW_DECISIONS.map((d) => ({ value: d, label: t(`decision.${d}`) }))}
          />
        </FormGroup>
        {own.length > 0 && (
          <FormGroup
            label={t('decide.reason')}
            labelFor="decide-reason"
            intent={tried && problem === 'reasonRequired' ? Intent.DANGER : Intent.NONE}
            helperText={
              tried && problem === 'reasonRequired' ? t('decide.problem.reasonRequired') : undefined
            }
          >
            <HTMLSelect
              id="decide-reason"
              fill
              value={reasonCode ?? ''}
              onChange={(event) => setReasonCode(event.currentTarget.value || null)}
              options={[
                { value: '', label: t('decide.chooseReason') },
                ...own.map((code) => ({ value: code.code, label: label(code) })),
              ]}
            />
          </FormGroup>
        )}
        <FormGroup
          label={t('decide.note')}
          labelFor="decide-note"
          intent={tried && problem && problem !== 'reasonRequired' ? Intent.DANGER : Intent.NONE}
          helperText={
            tried && problem && problem !== 'reasonRequired' ? t(`decide.problem.${problem}`) : undefined
          }
        >
          <TextArea
            id="decide-note"
            fill
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('decide.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('decide.submit')}
              loading={run.isPending}
              onClick={() => {
                setTried(true);
                if (!problem) run.mutate();
              }}
            />
          </>
        }
      />
    </Dialog>
  );
}

function SnoozeDialog({ c, onClose, onDone }: { c: ReviewCase; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('review');
  const { dateTime } = useFormat();
  const errorText = useErrorText();
  const tomorrow = firstSnoozeDay(Date.now());
  const [day, setDay] = useState(tomorrow);
  const until = day ? snoozeMoment(day) : null;
  const valid = snoozeValid(until, Date.now());
  const run = useMutation({
    mutationFn: () => snoozeCase(c.id, (until as Date).toISOString()),
    onSuccess: (after) => {
      onDone();
      void showSuccess(t('panel.snoozed', { date: dateTime(after.snoozed_until ?? after.due_at) }));
      onClose();
    },
    onError: (error) => {
      onDone();
      void showError(errorText(error));
    },
  });
  return (
    <Dialog isOpen title={t('snooze.title')} icon="time" onClose={onClose}>
      <DialogBody>
        <FormGroup
          label={t('snooze.until')}
          labelFor="snooze-until"
          intent={valid ? Intent.NONE : Intent.DANGER}
          helperText={valid ? undefined : t('snooze.invalid')}
        >
          <InputGroup
            id="snooze-until"
            type="date"
            value={day}
            min={tomorrow}
            onChange={(event) => setDay(event.currentTarget.value)}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('snooze.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('snooze.submit')}
              disabled={!valid}
              loading={run.isPending}
              onClick={() => run.mutate()}
            />
          </>
        }
      />
    </Dialog>
  );
}
