import './aml.css';
import { AnchorButton, Button, Callout, H4, H5, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { fromPromise } from 'xstate';
import type { AmlResult } from '#contract/aml';
import type { Profile } from '#contract/profiles';
import { amlStanding, canApprove } from '../../../../machines/amlRecords';
import { type AmlFailure, amlReviewMachine } from '../../../../machines/amlReview.machine';
import { amlKeys, approveAml, getAmlResult, runAmlCheck } from '../../../../services/api/aml';
import { isApiError } from '../../../../services/api/http';
import { profileDetailKeys } from '../../../../services/api/profileDetail';
import { Alert } from '../../../components/Dialog';
import { useFormat } from '../../../format';
import { showError, showSuccess } from '../../../toaster';
import { AmlRecordCard } from './AmlRecordCard';

/** The text of a failed check or approval: the AML permission message for a refusal. */
export function useFailureText() {
  const { t } = useTranslation('aml');
  const { t: tc } = useTranslation();
  return useCallback(
    (failure: AmlFailure) =>
      failure.kind === 'noPermission'
        ? tc('messages.noAmlPermission')
        : failure.kind === 'disabled'
          ? t('notEnabled')
          : (failure.detail ?? tc('messages.error')),
    [t, tc],
  );
}

/** AML & Adverse Media (service `aml` with an AML provider): the result, running a check, approving it. */
export function AmlTab({ profile }: { profile: Profile }) {
  const { t } = useTranslation('aml');
  const { t: tc } = useTranslation();
  const profileId = profile.id;
  const queryClient = useQueryClient();
  const failureText = useFailureText();
  const result = useQuery({
    queryKey: amlKeys.result(profileId),
    queryFn: ({ signal }) => getAmlResult(profileId, { signal }),
  });
  const machine = useMemo(
    () =>
      amlReviewMachine.provide({
        actors: {
          runCheck: fromPromise(({ input, signal }) => runAmlCheck(input.profileId, { signal })),
          approve: fromPromise(({ input, signal }) => approveAml(input.profileId, { signal })),
        },
        actions: {
          notifyChecked: (_, outcome) => {
            void showSuccess(
              outcome.status === 'hit'
                ? t('notice.checkedHit', { count: outcome.matches })
                : t('notice.checkedClear'),
            );
            void queryClient.invalidateQueries({ queryKey: amlKeys.result(profileId) });
            void queryClient.invalidateQueries({ queryKey: profileDetailKeys.logs(profileId) });
          },
          notifyApproved: () => {
            void showSuccess(t('notice.approved'));
            void queryClient.invalidateQueries({ queryKey: amlKeys.result(profileId) });
            void queryClient.invalidateQueries({ queryKey: profileDetailKeys.logs(profileId) });
          },
          notifyFailed: (_, failure) => void showError(failureText(failure)),
        },
      }),
    [profileId, queryClient, t, failureText],
  );
  const [state, send] = useMachine(machine, { input: { profileId } });
  const date = useFormat().dateTime;

  if (result.isError) {
    return (
      <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('loadFailed')}>
        <p>{isApiError(result.error) && result.error.detail ? result.error.detail : tc('messages.error')}</p>
        <Button icon="refresh" text={t('retry')} onClick={() => result.refetch()} />
      </Callout>
    );
  }
  if (!result.data) return <Spinner size={24} />;

  const aml = result.data;
  const standing = amlStanding(aml);
  const latest = aml.history[0];
  const busy = state.hasTag('busy');
  const failure = state.context.failure;

  return (
    <section aria-labelledby="aml-title">
      <div className="studio-section-title">
        <H4 id="aml-title">{t('title')}</H4>
        <div className="studio-aml-actions">
          <Button
            icon="refresh"
            text={t('actions.run')}
            loading={state.hasTag('checking')}
            disabled={busy}
            onClick={() => send({ type: 'check.requested' })}
          />
          <Button
            icon="tick"
            intent={Intent.SUCCESS}
            text={t('actions.approve')}
            loading={state.hasTag('approving')}
            disabled={busy || !canApprove(aml)}
            onClick={() => send({ type: 'approve.requested' })}
          />
        </div>
      </div>
      <p className="studio-muted">{t('provider', { provider: aml.provider })}</p>
      {failure && (
        <Callout
          intent={Intent.DANGER}
          icon="error"
          role="alert"
          className="studio-aml-summary"
          aria-live="assertive"
        >
          <p>{failureText(failure)}</p>
          <Button
            variant="minimal"
            size="small"
            text={t('actions.dismiss')}
            onClick={() => send({ type: 'failure.dismissed' })}
          />
        </Callout>
      )}
      <Summary aml={aml} date={date} />
      {standing === 'notChecked' && <p className="studio-muted">{t('empty.notChecked')}</p>}
      {standing === 'clear' && <p className="studio-muted">{t('empty.clear')}</p>}
      {aml.records.length > 0 && (
        <section aria-labelledby="aml-records-title">
          <H5 id="aml-records-title">
            {t('records.title')} · {t('records.count', { count: aml.records.length })}
          </H5>
          <div className="studio-aml-records">
            {aml.records.map((record, index) => (
              <AmlRecordCard key={String(record.entry_id ?? index)} record={record} />
            ))}
          </div>
        </section>
      )}
      <div className="studio-aml-links">
        <Link href="/amlHistory" asChild>
          <AnchorButton role="link" icon="time" variant="minimal" text={t('actions.history')} />
        </Link>
        {latest && (
          <Link href={`/amlRecordDetail/${latest.id}`} asChild>
            <AnchorButton role="link" icon="search" variant="minimal" text={t('actions.openLatest')} />
          </Link>
        )}
      </div>
      <Alert
        isOpen={state.matches('confirming')}
        icon="tick"
        intent={Intent.SUCCESS}
        confirmButtonText={t('confirm.approve')}
        cancelButtonText={t('confirm.cancel')}
        canEscapeKeyCancel
        onConfirm={() => send({ type: 'approve.confirmed' })}
        onCancel={() => send({ type: 'approve.cancelled' })}
      >
        <H5>{t('confirm.title')}</H5>
        <p>
          {aml.records.length > 0
            ? t('confirm.bodyHit', { count: aml.records.length })
            : t('confirm.bodyClear')}
        </p>
      </Alert>
    </section>
  );
}

function Summary({ aml, date }: { aml: AmlResult; date: (value: string) => string }) {
  const { t } = useTranslation('aml');
  const standing = amlStanding(aml);
  const latest = aml.history[0];
  const approval =
    aml.approved === true
      ? 'approved'
      : aml.approved === false
        ? 'declined'
        : standing === 'notChecked'
          ? null
          : 'pending';
  const rows: [string, React.ReactNode][] = [
    [
      t('summary.status'),
      <span className="studio-aml-tags" key="status">
        <Tag
          round
          intent={standing === 'hit' ? Intent.DANGER : standing === 'clear' ? Intent.SUCCESS : Intent.NONE}
        >
          {t(`standing.${standing}`)}
        </Tag>
        {approval && (
          <Tag round minimal intent={approval === 'approved' ? Intent.SUCCESS : Intent.WARNING}>
            {t(`approval.${approval}`)}
          </Tag>
        )}
      </span>,
    ],
    [t('summary.score'), standing === 'notChecked' ? '—' : aml.score],
    [t('summary.lists'), aml.list.length > 0 ? aml.list.join(', ') : t('summary.noLists')],
    [t('summary.lastCheck'), latest ? date(latest.date) : t('summary.never')],
    [t('summary.database'), latest?.scanned_database ?? '—'],
    [t('summary.approvedBy'), aml.approved_by?.name ?? t('summary.notApproved')],
    [t('summary.approvedDate'), aml.approved_date ? date(aml.approved_date) : '—'],
  ];
  return (
    <dl className="studio-fields studio-aml-summary" aria-label={t('summary.label')}>
      {rows.map(([label, value]) => (
        <div key={label} className="studio-field">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
