import {
  Button,
  Card,
  FormGroup,
  H3,
  HTMLSelect,
  HTMLTable,
  Menu,
  MenuItem,
  NonIdealState,
  PopoverNext,
} from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AGENT_STATUSES,
  type AgentStatusName,
  CALL_STATUS_DISCONNECTED,
  FINAL_CALL_STATUSES,
} from '#contract/constants';
import type { BoardAgent } from '#contract/socket';
import { secondsInState } from '../../../machines/instantStats';
import { isApiError } from '../../../services/api/http';
import { closeCall, setAgentStatus } from '../../../services/api/videocalls';
import { useActiveAccount } from '../../app/useAccounts';
import { ReasonDialog } from '../../components/ReasonDialog';
import { formatDuration } from '../../components/useWaited';
import { showError, showSuccess } from '../../toaster';
import { useNow } from './InstantStatsPanel';
import { mayWatch, WatchAction } from './WatchAction';

/**
 * Every agent of the company with availability, time in that state and current call. Supervisors see it;
 * an admin may also change another agent's availability, and whoever may manage calls close an agent's call
 * with a status and a reason (the server checks both too).
 */
export function AgentBoard({ agents }: { agents: readonly BoardAgent[] }) {
  const { t } = useTranslation('calls');
  const account = useActiveAccount();
  const now = useNow();
  const isAdmin = account?.role === 'Admin';
  const mayClose = account?.permissions.includes('manage_calls') === true;
  const watcher = mayWatch(account);
  return (
    <Card className="studio-calls-board">
      <H3>{t('board.title')}</H3>
      {agents.length === 0 ? (
        <NonIdealState icon="people" description={t('board.empty')} />
      ) : (
        <HTMLTable compact striped className="studio-table" aria-label={t('board.title')}>
          <thead>
            <tr>
              <th scope="col">{t('board.agent')}</th>
              <th scope="col">{t('board.availability')}</th>
              <th scope="col">{t('board.timeInState')}</th>
              <th scope="col">{t('board.currentCall')}</th>
            </tr>
          </thead>
          <tbody>
            {agents.map((agent) => {
              const seconds = secondsInState(agent, now);
              const self = agent.id === account?.id;
              return (
                <tr key={agent.id} data-testid={`agent-${agent.id}`}>
                  <th scope="row">{self ? `${agent.name} ${t('board.you')}` : agent.name}</th>
                  <td>
                    <span className={`studio-status-dot studio-status-${agent.status}`} aria-hidden />{' '}
                    {isAdmin && !self ? (
                      <StatusChanger agent={agent} />
                    ) : (
                      t(`realtime.status.${agent.status}`)
                    )}
                  </td>
                  <td>{seconds === null ? t('board.noCall') : formatDuration(seconds)}</td>
                  <td>
                    {agent.call_id === null ? t('board.noCall') : t('board.inCall', { id: agent.call_id })}
                    {agent.call_id !== null && watcher && !self && <WatchAction callId={agent.call_id} />}
                    {agent.call_id !== null && mayClose && (
                      <CallCloser agent={agent} callId={agent.call_id} />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

function StatusChanger({ agent }: { agent: BoardAgent }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const change = useMutation({
    mutationFn: (status: AgentStatusName) => setAgentStatus(status, agent.id),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  return (
    <PopoverNext
      placement="bottom-start"
      content={
        <Menu aria-label={t('board.change', { name: agent.name })}>
          {AGENT_STATUSES.map((status) => (
            <MenuItem
              key={status}
              role="menuitemradio"
              aria-checked={status === agent.status}
              icon={status === agent.status ? 'tick' : 'blank'}
              text={t(`realtime.status.${status}`)}
              onClick={() => change.mutate(status)}
            />
          ))}
        </Menu>
      }
    >
      <Button
        small
        variant="minimal"
        endIcon="caret-down"
        loading={change.isPending}
        text={t(`realtime.status.${agent.status}`)}
        // The name starts with the visible status (WCAG 2.5.3: label in name).
        aria-label={`${t(`realtime.status.${agent.status}`)}: ${t('board.change', { name: agent.name })}`}
      />
    </PopoverNext>
  );
}

/** Closes an agent's call (one left talking, an agent who cannot): a final status and a reason, confirmed. */
function CallCloser({ agent, callId }: { agent: BoardAgent; callId: number }) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState(CALL_STATUS_DISCONNECTED);
  const close = useMutation({
    mutationFn: (reason: string) => closeCall(callId, status, reason),
    onSuccess: () => void showSuccess(t('board.closed', { id: callId })),
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  return (
    <>
      <Button
        small
        variant="minimal"
        intent="danger"
        icon="cross-circle"
        className="studio-board-close"
        text={t('board.close')}
        aria-label={t('board.closeOf', { id: callId, name: agent.name })}
        onClick={() => setOpen(true)}
      />
      <ReasonDialog
        isOpen={open}
        title={t('board.closeTitle', { id: callId })}
        body={t('board.closeBody', { name: agent.name })}
        label={t('board.closeReason')}
        help={t('board.closeReasonHelp')}
        confirm={t('board.closeConfirm')}
        cancel={t('board.closeCancel')}
        busy={close.isPending}
        onConfirm={(reason) =>
          close.mutateAsync(reason).then(
            () => true,
            () => false,
          )
        }
        onClose={() => setOpen(false)}
      >
        <FormGroup label={t('board.closeStatus')} labelFor="close-call-status">
          <HTMLSelect
            id="close-call-status"
            fill
            value={status}
            onChange={(event) => setStatus(Number(event.currentTarget.value))}
            options={FINAL_CALL_STATUSES.map((code) => ({
              value: code,
              label: t(`statusNames.${code}` as 'statusNames.3'),
            }))}
          />
        </FormGroup>
      </ReasonDialog>
    </>
  );
}
