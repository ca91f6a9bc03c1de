/** What the desk's views share: the viewer, the lists they read, and the labels of cases in the current language. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReasonCode, ReviewCase } from '#contract/review';
import { getReasonCodes, listReviewers, reviewKeys } from '../../../services/api/review';
import { useActiveAccount } from '../../app/useAccounts';
import { useFormat } from '../../format';
import { reviewQueuesQuery } from '../../queries';
import { hoursMinutes, timeLeft, type Viewer } from './deskRules';

export function useViewer(): Viewer {
  const account = useActiveAccount();
  return {
    id: account?.id ?? 0,
    admin: account?.role === 'Admin',
    secondReview: account?.permissions.includes('second_review') ?? false,
  };
}

export const useQueues = () => useQuery(reviewQueuesQuery());
export const useReviewers = () =>
  useQuery({ queryKey: reviewKeys.reviewers(), queryFn: ({ signal }) => listReviewers({ signal }) });
export const useReasonCodes = () =>
  useQuery({ queryKey: reviewKeys.reasonCodes(), queryFn: ({ signal }) => getReasonCodes({ signal }) });

/** The current time, moving every `everyMs` (the time-left column counts down). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A reason code's label in the interface language. */
export function useReasonLabel() {
  const { i18n } = useTranslation();
  return (code: ReasonCode) => (i18n.language.startsWith('tr') ? code.label_tr : code.label_en);
}

const INTENT = { ok: 'success', soon: 'warning', overdue: 'danger', stopped: 'none' } as const;

/** The time left of a case as text and a Blueprint intent (green, amber, red; none while the clock stands). */
export function useTimeLeftText() {
  const { t } = useTranslation('review');
  const { dateTime } = useFormat();
  return (c: ReviewCase, now: number, slaHours?: number) => {
    const left = timeLeft(c, now, slaHours);
    const span = hoursMinutes(left.ms);
    const text =
      left.tone === 'stopped'
        ? t('due.stopped')
        : left.tone === 'overdue'
          ? t('due.overdue', span)
          : t('due.left', span);
    return {
      text,
      intent: INTENT[left.tone],
      tone: left.tone,
      title: t('due.at', { date: dateTime(c.due_at) }),
    };
  };
}
