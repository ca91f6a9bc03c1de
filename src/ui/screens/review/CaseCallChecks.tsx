import { Button, DialogBody, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewCase } from '#contract/review';
import { listCalls, stepKeys } from '../../../services/api/profileDetail';
import { useActiveAccount } from '../../app/useAccounts';
import { Dialog } from '../../components/Dialog';
import { CallChecks } from '../../components/MachineHints';
import { useFormat } from '../../format';

/**
 * A video identification case's machine checks: those of the call it is about, the profile's latest call
 * begun before the case opened, with the same hints the agent saw in it. Only for who may see a call's evidence,
 * as the server checks it. They open in a dialog: the case card sits above the profile's tabs, and hints that
 * arrived in it later would push the tabs down under the reviewer's pointer.
 */
export function CaseCallChecks({ c }: { c: ReviewCase }) {
  const { t } = useTranslation('review');
  const [open, setOpen] = useState(false);
  const allowed = useActiveAccount()?.permissions.includes('view_calls_page') ?? false;
  if (!allowed || c.kind !== 'video_identification') return null;
  return (
    <>
      <Button
        variant="minimal"
        icon="predictive-analysis"
        text={t('panel.callChecksOpen')}
        onClick={() => setOpen(true)}
      />
      <Dialog isOpen={open} title={t('panel.callChecksTitle')} onClose={() => setOpen(false)}>
        <DialogBody>
          <ChecksOfCall c={c} />
        </DialogBody>
      </Dialog>
    </>
  );
}

function ChecksOfCall({ c }: { c: ReviewCase }) {
  const { t } = useTranslation('review');
  const dateTime = useFormat().dateTime;
  const calls = useQuery({
    queryKey: stepKeys.calls(c.profile),
    queryFn: ({ signal }) => listCalls(c.profile, { signal }),
  });
  if (calls.isPending) return <Spinner />;
  const call = (calls.data?.results ?? [])
    .filter((call) => call.created_at <= c.created_at)
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .at(-1);
  if (!call) return <NonIdealState icon="video" description={t('panel.noCallChecks')} />;
  return (
    <div className="studio-review-call-checks" data-call={call.id}>
      <p className="studio-muted">{t('panel.callChecks', { date: dateTime(call.created_at) })}</p>
      <CallChecks callId={call.id} />
    </div>
  );
}
