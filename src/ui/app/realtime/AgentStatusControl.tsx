import { Button, Menu, MenuItem, PopoverNext, Tooltip } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { AGENT_STATUSES, type AgentStatusName } from '#contract/constants';
import { useMounted } from '../useMounted';
import { type RealtimeDesk, useRealtime } from './RealtimeProvider';

const INTENT: Record<AgentStatusName, 'success' | 'none' | 'warning' | 'primary'> = {
  Online: 'success',
  Offline: 'none',
  Break: 'warning',
  Meeting: 'primary',
  Education: 'primary',
};

/** The agent's availability in the shell, on every screen: shown from the server, changed through it. */
export function AgentStatusControl() {
  const realtime = useRealtime();
  if (!realtime) return null;
  return <StatusMenu availability={realtime.availability} />;
}

function StatusMenu({ availability }: { availability: RealtimeDesk['availability'] }) {
  const { t } = useTranslation('calls');
  const status = useSelector(availability, (s) => s.context.status);
  const busy = useSelector(availability, (s) => s.hasTag('busy'));
  const label = status ? t(`realtime.status.${status}`) : t('realtime.status.unknown');
  const mounted = useMounted();
  const button = (
    <Button
      variant="minimal"
      icon={<span className={`studio-status-dot studio-status-${status ?? 'unknown'}`} aria-hidden />}
      endIcon="caret-down"
      intent={status ? INTENT[status] : 'none'}
      loading={busy}
      text={label}
      aria-label={`${t('realtime.status.label')}: ${label}`}
    />
  );
  // The popover and tooltip from the second render on (useMounted: no synchronous render in the first commit).
  if (!mounted) return button;
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label={t('realtime.status.menu')}>
          {AGENT_STATUSES.map((option) => (
            <MenuItem
              key={option}
              role="menuitemradio"
              aria-checked={option === status}
              icon={option === status ? 'tick' : 'blank'}
              text={t(`realtime.status.${option}`)}
              onClick={() => availability.send({ type: 'STATUS.SET', status: option })}
            />
          ))}
        </Menu>
      }
    >
      <Tooltip content={t('realtime.status.onlyOnline')} placement="bottom">
        {button}
      </Tooltip>
    </PopoverNext>
  );
}
