import {
  Button,
  ButtonGroup,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewCase } from '#contract/review';
import { assignCase, moveCase, reviewKeys, snoozeCase } from '../../../services/api/review';
import { Dialog } from '../../components/Dialog';
import { useErrorText } from '../../components/useErrorText';
import { showError, showSuccess } from '../../toaster';
import { type BulkAction, bulkSplit, firstSnoozeDay, snoozeMoment, snoozeValid } from './deskRules';
import { useQueues, useReviewers, useViewer } from './useDesk';

/** The selected cases' actions: assign, move, snooze; each opens a confirmation that says what it applies to. */
export function BulkBar({ selected, onDone }: { selected: ReviewCase[]; onDone: () => void }) {
  const { t } = useTranslation('review');
  const [action, setAction] = useState<BulkAction | null>(null);
  return (
    <section className="studio-review-bulk" aria-label={t('bulk.label')}>
      <span role="status">{t('bulk.selected', { count: selected.length })}</span>
      <ButtonGroup>
        <Button icon="person" text={t('bulk.assign')} onClick={() => setAction('assign')} />
        <Button icon="swap-horizontal" text={t('bulk.move')} onClick={() => setAction('move')} />
        <Button icon="time" text={t('bulk.snooze')} onClick={() => setAction('snooze')} />
      </ButtonGroup>
      {action && (
        <BulkDialog
          action={action}
          selected={selected}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null);
            onDone();
          }}
        />
      )}
    </section>
  );
}

const TITLES = { assign: 'bulk.assignTitle', move: 'bulk.moveTitle', snooze: 'bulk.snoozeTitle' } as const;

function BulkDialog({
  action,
  selected,
  onClose,
  onDone,
}: {
  action: BulkAction;
  selected: ReviewCase[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('review');
  const me = useViewer();
  const reviewers = useReviewers();
  const queues = useQueues();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const { apply, skipped } = bulkSplit(action, selected, me);
  const tomorrow = firstSnoozeDay(Date.now());
  const [target, setTarget] = useState('');
  const [day, setDay] = useState(tomorrow);
  const until = day ? snoozeMoment(day) : null;
  const dayValid = snoozeValid(until, Date.now());
  const ready = apply.length > 0 && (action === 'snooze' ? dayValid : target !== '');

  const run = useMutation({
    mutationFn: async () => {
      const results = await Promise.allSettled(
        apply.map((c) =>
          action === 'assign'
            ? assignCase(c.id, Number(target))
            : action === 'move'
              ? moveCase(c.id, Number(target))
              : snoozeCase(c.id, (until as Date).toISOString()),
        ),
      );
      return results;
    },
    onSuccess: (results) => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      const done = results.length - failed.length;
      if (done > 0) void showSuccess(t('bulk.done', { count: done }));
      if (failed[0])
        void showError(t('bulk.failed', { count: failed.length, detail: errorText(failed[0].reason) }));
      onDone();
    },
  });

  return (
    <Dialog isOpen title={t(TITLES[action])} icon="take-action" onClose={onClose}>
      <DialogBody>
        {action === 'assign' && (
          <FormGroup label={t('bulk.reviewer')} labelFor="bulk-target">
            <HTMLSelect
              id="bulk-target"
              fill
              value={target}
              onChange={(event) => setTarget(event.currentTarget.value)}
              options={[
                { value: '', label: t('actions.chooseReviewer') },
                ...(reviewers.data ?? []).map((r) => ({ value: r.user, label: r.name })),
              ]}
            />
          </FormGroup>
        )}
        {action === 'move' && (
          <FormGroup label={t('bulk.queue')} labelFor="bulk-target">
            <HTMLSelect
              id="bulk-target"
              fill
              value={target}
              onChange={(event) => setTarget(event.currentTarget.value)}
              options={[
                { value: '', label: t('bulk.queue') },
                ...(queues.data ?? []).map((q) => ({ value: q.id, label: q.name })),
              ]}
            />
          </FormGroup>
        )}
        {action === 'snooze' && (
          <FormGroup
            label={t('bulk.until')}
            labelFor="bulk-until"
            intent={dayValid ? Intent.NONE : Intent.DANGER}
            helperText={dayValid ? undefined : t('snooze.invalid')}
          >
            <InputGroup
              id="bulk-until"
              type="date"
              value={day}
              min={tomorrow}
              onChange={(event) => setDay(event.currentTarget.value)}
            />
          </FormGroup>
        )}
        <p>{t('bulk.applies', { count: apply.length })}</p>
        {skipped > 0 && <p className="studio-muted">{t('bulk.skipped', { count: skipped })}</p>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('bulk.cancel')} onClick={onClose} />
            <Button
              intent={Intent.PRIMARY}
              text={t('bulk.confirm')}
              disabled={!ready}
              loading={run.isPending}
              onClick={() => run.mutate()}
            />
          </>
        }
      />
    </Dialog>
  );
}
