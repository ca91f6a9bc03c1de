import { Button, Intent, NumericInput, Switch, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FOUR_EYES_RULES,
  type FourEyesRules,
  queueBodySchema,
  REVIEW_LIMITS,
  type Reviewer,
  type ReviewQueue,
  reviewerBodySchema,
  rulesBodySchema,
} from '#contract/review';
import { isApiError } from '../../../services/api/http';
import { listQueues, listReviewers } from '../../../services/api/review';
import {
  getReviewRules,
  reviewAdminKeys,
  setReviewer,
  setReviewQueue,
  setReviewRules,
} from '../../../services/api/reviewAdmin';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';
import { CompanySettingCard, useCompanySetting } from './CompanySettingCard';
import { ReasonCodesCard } from './ReasonCodesCard';
import { ListCard, ListTable } from './ReviewListCard';

export function ReviewDeskTabTitle() {
  const { t } = useTranslation('reviewAdmin');
  return <>{t('tab')}</>;
}

/**
 * The reviewers' desk for Admins: the four-eyes rules, the queues' SLA and auto-assignment,
 * the reason codes per decision in both languages, and the reviewers' capacity and away status.
 */
export function ReviewDeskTab() {
  return (
    <div className="studio-review-admin">
      <RulesCard />
      <QueuesCard />
      <ReasonCodesCard />
      <ReviewersCard />
    </div>
  );
}

function RulesCard() {
  const { t } = useTranslation('calls');
  const setting = useCompanySetting({
    keys: reviewAdminKeys.rules,
    read: getReviewRules,
    write: (body: FourEyesRules) => setReviewRules(body),
    texts: 'reviewRules',
  });
  const { settings, draft, setDraft, save } = setting;
  const shown = Object.fromEntries(
    FOUR_EYES_RULES.map((rule) => [rule, draft[rule] ?? settings.data?.[rule] ?? false]),
  ) as FourEyesRules;
  const locked = !setting.isAdmin || save.isPending;
  return (
    <CompanySettingCard
      texts="reviewRules"
      settings={settings}
      isAdmin={setting.isAdmin}
      saving={save.isPending}
      canSave={rulesBodySchema.safeParse(shown).success && setting.changed}
      onSave={() => save.mutate(shown)}
    >
      {FOUR_EYES_RULES.map((rule) => (
        <Switch
          key={rule}
          label={t(`reviewRules.${rule}`)}
          checked={shown[rule]}
          disabled={locked}
          onChange={(event) => setDraft({ ...draft, [rule]: event.currentTarget.checked })}
        />
      ))}
    </CompanySettingCard>
  );
}

/** The first message of a zod check of one field, or null. */
function fieldError(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
) {
  return result.success
    ? null
    : (result.error?.issues.find((issue) => issue.path[0] === field)?.message ?? null);
}

function QueuesCard() {
  const { t } = useTranslation('reviewAdmin');
  const account = useActiveAccount();
  const queues = useQuery({
    queryKey: [...reviewAdminKeys.queues, account?.company_id ?? 0],
    queryFn: ({ signal }) => listQueues({ signal }),
  });
  return (
    <ListCard
      title={t('queues.title')}
      body={t('queues.body')}
      query={queues}
      failed={t('queues.loadFailed')}
    >
      <ListTable
        label={t('queues.title')}
        columns={[t('queues.name'), t('queues.open'), t('queues.sla'), t('queues.autoAssign')]}
        empty={t('queues.empty')}
        rows={(queues.data ?? []).map((queue) => <QueueRow key={queue.id} queue={queue} />)}
      />
    </ListCard>
  );
}

function QueueRow({ queue }: { queue: ReviewQueue }) {
  const { t } = useTranslation('reviewAdmin');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [sla, setSla] = useState<number>(queue.sla_hours);
  const [auto, setAuto] = useState(queue.auto_assign);
  const body = { sla_hours: sla, auto_assign: auto };
  const checked = queueBodySchema.safeParse(body);
  const slaError = fieldError(checked, 'sla_hours')
    ? t('queues.slaBounds', { max: REVIEW_LIMITS.queueSlaHoursMax })
    : null;
  const changed = sla !== queue.sla_hours || auto !== queue.auto_assign;
  const save = useMutation({
    mutationFn: () => setReviewQueue(queue.id, body),
    onSuccess: (answer) => {
      setSla(answer.sla_hours);
      setAuto(answer.auto_assign);
      void queryClient.invalidateQueries({ queryKey: reviewAdminKeys.queues });
      void showSuccess(t('queues.saved', { name: answer.name }));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const inputId = `review-queue-sla-${queue.id}`;
  return (
    <tr>
      <th scope="row">
        {queue.name} {queue.senior && <Tag minimal>{t('queues.senior')}</Tag>}
      </th>
      <td>{t('queues.openCount', { open: queue.open, overdue: queue.overdue })}</td>
      <EditCells
        number={{
          id: inputId,
          value: sla,
          min: 1,
          max: REVIEW_LIMITS.queueSlaHoursMax,
          label: t('queues.slaOf', { name: queue.name }),
          error: slaError,
          onChange: setSla,
        }}
        toggle={{
          checked: auto,
          label: t('queues.autoAssignOf', { name: queue.name }),
          onChange: setAuto,
        }}
        save={{
          label: t('queues.saveOf', { name: queue.name }),
          disabled: !changed || !checked.success,
          pending: save.isPending,
          onClick: () => save.mutate(),
        }}
      />
    </tr>
  );
}

function ReviewersCard() {
  const { t } = useTranslation('reviewAdmin');
  const account = useActiveAccount();
  const reviewers = useQuery({
    queryKey: [...reviewAdminKeys.reviewers, account?.company_id ?? 0],
    queryFn: ({ signal }) => listReviewers({ signal }),
  });
  return (
    <ListCard
      title={t('reviewers.title')}
      body={t('reviewers.body')}
      query={reviewers}
      failed={t('reviewers.loadFailed')}
    >
      <ListTable
        label={t('reviewers.title')}
        columns={[t('reviewers.name'), t('reviewers.load'), t('reviewers.capacity'), t('reviewers.away')]}
        empty={t('reviewers.empty')}
        rows={(reviewers.data ?? []).map((reviewer) => (
          <ReviewerRow key={reviewer.user} reviewer={reviewer} />
        ))}
      />
    </ListCard>
  );
}

function ReviewerRow({ reviewer }: { reviewer: Reviewer }) {
  const { t } = useTranslation('reviewAdmin');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [capacity, setCapacity] = useState(reviewer.capacity);
  const [away, setAway] = useState(reviewer.away);
  const body = { capacity, away };
  const checked = reviewerBodySchema.safeParse(body);
  const capacityError = fieldError(checked, 'capacity')
    ? t('reviewers.capacityBounds', { max: REVIEW_LIMITS.capacityMax })
    : null;
  const changed = capacity !== reviewer.capacity || away !== reviewer.away;
  const save = useMutation({
    mutationFn: () => setReviewer(reviewer.user, body),
    onSuccess: (answer) => {
      setCapacity(answer.capacity);
      setAway(answer.away);
      void queryClient.invalidateQueries({ queryKey: reviewAdminKeys.reviewers });
      void showSuccess(t('reviewers.saved', { name: answer.name }));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  const inputId = `reviewer-capacity-${reviewer.user}`;
  return (
    <tr>
      <th scope="row">
        {reviewer.name} {reviewer.second_review && <Tag minimal>{t('reviewers.secondReview')}</Tag>}
      </th>
      <td>{reviewer.load}</td>
      <EditCells
        number={{
          id: inputId,
          value: capacity,
          min: 0,
          max: REVIEW_LIMITS.capacityMax,
          label: t('reviewers.capacityOf', { name: reviewer.name }),
          error: capacityError,
          onChange: setCapacity,
        }}
        toggle={{
          checked: away,
          label: t('reviewers.awayOf', { name: reviewer.name }),
          onChange: setAway,
        }}
        save={{
          label: t('reviewers.saveOf', { name: reviewer.name }),
          disabled: !changed || !checked.success,
          pending: save.isPending,
          onClick: () => save.mutate(),
        }}
      />
    </tr>
  );
}

/**
 * The cells a queue's or a reviewer's row edits: a whole number within its bounds (out of them the field is
 * marked and the bounds are said beside it), a switch, and the row's own save button.
 */
function EditCells({
  number,
  toggle,
  save,
}: {
  number: {
    id: string;
    value: number;
    min: number;
    max: number;
    label: string;
    error: string | null;
    onChange: (value: number) => void;
  };
  toggle: { checked: boolean; label: string; onChange: (checked: boolean) => void };
  save: { label: string; disabled: boolean; pending: boolean; onClick: () => void };
}) {
  const { t } = useTranslation('reviewAdmin');
  const errorId = `${number.id}-error`;
  return (
    <>
      <td>
        <div className="studio-review-admin-number">
          <NumericInput
            id={number.id}
            buttonPosition="none"
            value={Number.isFinite(number.value) ? number.value : ''}
            min={number.min}
            max={number.max}
            stepSize={1}
            minorStepSize={null}
            allowNumericCharactersOnly
            clampValueOnBlur={false}
            disabled={save.pending}
            intent={number.error ? Intent.DANGER : Intent.NONE}
            aria-label={number.label}
            aria-invalid={number.error !== null}
            aria-describedby={number.error ? errorId : undefined}
            onValueChange={(value) => number.onChange(value)}
            fill
          />
        </div>
        {number.error && (
          <p id={errorId} className="studio-review-admin-error">
            {number.error}
          </p>
        )}
      </td>
      <td>
        <Switch
          className="studio-review-admin-switch"
          checked={toggle.checked}
          disabled={save.pending}
          aria-label={toggle.label}
          onChange={(event) => toggle.onChange(event.currentTarget.checked)}
        />
      </td>
      <td>
        <Button
          text={t('save')}
          aria-label={save.label}
          intent={Intent.PRIMARY}
          disabled={save.disabled}
          loading={save.pending}
          onClick={save.onClick}
        />
      </td>
    </>
  );
}
