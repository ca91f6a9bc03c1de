import { Button, Intent, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { PROFILE_STATUSES, type ProfileStatus } from '../../../contract/constants';
import { profileStatusMachine } from '../../../machines/profileStatus.machine';
import { profileDetailKeys } from '../../../services/api/profileDetail';
import { changeStatus } from '../../../services/api/profileWrites';
import { StatusTag, useProfileLabels } from '../../components/profileLabels';
import { ReasonDialog } from '../../components/ReasonDialog';
import { showError, showSuccess } from '../../toaster';

/** The profile's status with the menu that changes it (§4; the profileStatus machine decides). */
export function StatusMenu({ profileId, status }: { profileId: number; status: ProfileStatus }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const labels = useProfileLabels();
  const queryClient = useQueryClient();
  const machine = useMemo(
    () =>
      profileStatusMachine.provide({
        actors: { changeStatus: fromPromise(({ input, signal }) => changeStatus(input, { signal })) },
        actions: {
          notifyChanged: () => {
            void showSuccess(tc('success.customerStatusChanged'));
            void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profileId) });
            void queryClient.invalidateQueries({ queryKey: ['profiles', 'list'] });
          },
          notifyFailed: (_, detail) => {
            const failed = tc('messages.customerStatusChangeFailed');
            void showError(detail && detail !== failed ? `${failed}: ${detail}` : failed);
          },
        },
      }),
    [profileId, queryClient, tc],
  );
  const [state, send] = useMachine(machine, { input: { profileId, status } });
  useEffect(() => send({ type: 'status.loaded', status }), [send, status]);
  const { current, target } = state.context;

  return (
    <>
      <PopoverNext
        placement="bottom-start"
        content={
          <Menu aria-label={t('status.menu')}>
            {PROFILE_STATUSES.map((option) => (
              <MenuItem
                key={option}
                text={labels.status(option)}
                roleStructure="listoption"
                selected={option === current}
                intent={option === 'Rejected' || option === 'Blacklisted' ? Intent.DANGER : Intent.NONE}
                onClick={() => send({ type: 'status.selected', status: option })}
              />
            ))}
          </Menu>
        }
      >
        <Button
          variant="minimal"
          size="small"
          endIcon="caret-down"
          loading={state.hasTag('busy')}
          aria-label={`${t('status.change')}: ${labels.status(current)}`}
        >
          <StatusTag status={current} />
        </Button>
      </PopoverNext>
      <ReasonDialog
        isOpen={state.matches('confirming')}
        title={t('status.confirmTitle', { status: target ? labels.status(target) : '' })}
        body={t('status.confirmBody')}
        label={t('status.reason')}
        help={t('status.reasonHelp')}
        confirm={t('status.confirm')}
        cancel={t('status.cancel')}
        onConfirm={(reason) => {
          send({ type: 'change.confirmed', reason });
          return true;
        }}
        onClose={() => send({ type: 'change.cancelled' })}
      />
    </>
  );
}
