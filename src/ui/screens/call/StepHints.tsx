import { FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { ScreenshotStep } from '#contract/identProcedure';
import type { MachineCheck, MachineCheckKind } from '#contract/machineChecks';
import type { identStepsMachine } from '../../../machines/identSteps.machine';
import { getCallChecks, machineCheckKeys } from '../../../services/api/machineChecks';
import { useRealtime } from '../../app/realtime/RealtimeProvider';
import { latestCheck, MachineHints } from '../../components/MachineHints';

/** The checks each screenshot step shows: the face match on both of its sides, the MRZ on either ID side. */
const KINDS_OF_STEP: Record<ScreenshotStep, readonly MachineCheckKind[]> = {
  face_screenshot: ['face_match'],
  id_front: ['face_match', 'mrz'],
  id_back: ['mrz'],
  security_features: [],
};

/** The call's machine checks, kept current by `call.check_done` as each ends. */
function useCallChecks(callId: number) {
  const queryClient = useQueryClient();
  const realtime = useRealtime();
  const key = machineCheckKeys.call(callId);
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => getCallChecks(callId, { signal }) });
  useEffect(
    () =>
      realtime?.subscribe((event) => {
        if (event.type !== 'CHECK.DONE' || event.call_id !== callId) return;
        queryClient.setQueryData<MachineCheck[]>(machineCheckKeys.call(callId), (old = []) => [
          ...old.filter((c) => c.id !== event.check.id),
          event.check,
        ]);
        // A read on its way was answered before this check ended and would put back the list without it: it is
        // read again instead (the check is stored before its event is sent).
        if (queryClient.isFetching({ queryKey: machineCheckKeys.call(callId) }) > 0)
          void queryClient.invalidateQueries({ queryKey: machineCheckKeys.call(callId) });
      }),
    [realtime, queryClient, callId],
  );
  return query;
}

/**
 * The machine checks' hints beside a screenshot step: "likely the same person (0.83)", the MRZ read with its
 * check digits, expiry and cross-checks. While a screenshot of this step has no check yet, says it is checking.
 * On the face step against a "faces differ" hint, the agent's reason goes with a pass.
 */
export function StepHints({
  callId,
  kind,
  steps,
}: {
  callId: number;
  kind: ScreenshotStep;
  steps: ActorRefFrom<typeof identStepsMachine>;
}) {
  const { t } = useTranslation('calls');
  const checks = useCallChecks(callId);
  const shots = useSelector(steps, (s) => s.context.shots);
  const reason = useSelector(steps, (s) => s.context.reason);
  const kinds = KINDS_OF_STEP[kind];
  if (kinds.length === 0) return null;
  const list = checks.data ?? [];
  const latestShot = shots[kind]?.at(-1)?.id;
  const faceNeedsBoth = kind === 'face_screenshot' && !shots.id_front?.length;
  const checking =
    latestShot !== undefined && !faceNeedsBoth && !list.some((c) => c.screenshots.includes(latestShot));
  const differ = kind === 'face_screenshot' && latestCheck(list, 'face_match')?.result?.outcome === 'differ';
  return (
    <section className="studio-step-hints" aria-label={t('checks.title')} aria-live="polite">
      {checking && (
        <p className="studio-muted">
          <Spinner size={12} /> {t('checks.waiting')}
        </p>
      )}
      <MachineHints checks={list} kinds={kinds} />
      {list.length > 0 && <small className="studio-muted">{t('checks.note')}</small>}
      {differ && (
        <FormGroup
          label={t('checks.face.reasonLabel')}
          labelFor="face-override-reason"
          helperText={t('checks.face.reasonHelp')}
        >
          <InputGroup
            id="face-override-reason"
            value={reason}
            onValueChange={(value) => steps.send({ type: 'REASON.CHANGE', reason: value })}
          />
        </FormGroup>
      )}
    </section>
  );
}
