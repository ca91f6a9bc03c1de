import { AnchorButton, H2, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { usePageTitle } from '../../app/usePageTitle';
import { callPath } from '../../components/callPaths';
import { CallView } from './CallView';
import { useDeskCall } from './useCall';

/** call/:customerID/:roomID/:callID (docs/product/screens.md): the live call this window answered. */
export function CallScreen() {
  const { t } = useTranslation('calls');
  const { t: ts } = useTranslation('screens');
  const { customerID, roomID, callID } = useParams<{ customerID: string; roomID: string; callID: string }>();
  usePageTitle(ts('call.title'));
  const call = useDeskCall(Number(callID));
  const room = useSelector(call ?? undefined, (s) => s?.context.room ?? null);
  const [, navigate] = useLocation();
  // Opened while answering, the address holds a placeholder room: once the answer names the room, the
  // address becomes the call's own (a reload or a copied link then opens this call).
  useEffect(() => {
    if (call && room && room !== roomID)
      navigate(`~${callPath({ ...call.getSnapshot().context.call, room_id: room })}`, { replace: true });
  }, [call, room, roomID, navigate]);
  if (call) return <CallView call={call} />;
  return (
    <section aria-labelledby="page-title">
      <H2 id="page-title">{ts('call.title')}</H2>
      <NonIdealState
        icon="mobile-video"
        title={t('call.notHereTitle')}
        description={t('call.notHereBody')}
        action={
          <>
            <Link href={`~/profile/${customerID}?tab=videoCalls`} asChild>
              <AnchorButton role="link" icon="person" text={t('call.openProfile')} />
            </Link>{' '}
            <Link href="~/calls" asChild>
              <AnchorButton role="link" icon="arrow-left" text={t('call.backToCalls')} />
            </Link>
          </>
        }
      />
    </section>
  );
}
