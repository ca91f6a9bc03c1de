import {
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  Intent,
  Menu,
  MenuItem,
  PopoverNext,
  TextArea,
} from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { PROFILE_STATUSES, type ProfileStatus } from '../../../contract/constants';
import {
  MIN_REASON_LENGTH,
  profileStatusMachine,
  reasonIsLongEnough,
} from '../../../machines/profileStatus.machine';
import { profileDetailKeys } from '../../../services/api/profileDetail';
import { changeStatus } from '../../../services/api/profileWrites';
import { StatusTag, useProfileLabels } from '../../components/profileLabels';
import { useFormCheck } from '../../components/useFormCheck';
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
      <ConfirmDialog
        isOpen={state.matches('confirming')}
        status={target ? labels.status(target) : ''}
        onConfirm={(reason) => send({ type: 'change.confirmed', reason })}
        onCancel={() => send({ type: 'change.cancelled' })}
      />
    </>
  );
}

function ConfirmDialog({
  isOpen,
  status,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  status: string;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const [reason, setReason] = useState('');
  const { failures, passes, reset } = useFormCheck(() => ({
    reason: reasonIsLongEnough(reason) ? null : 'tooShort',
  }));
  const tooShort = !!failures.reason;
  const close = () => {
    setReason('');
    reset();
    onCancel();
  };
  return (
    <Dialog isOpen={isOpen} title={t('status.confirmTitle', { status })} icon="warning-sign" onClose={close}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!passes()) return;
          onConfirm(reason);
          setReason('');
          reset();
        }}
      >
        <DialogBody>
          <p>{t('status.confirmBody')}</p>
          <FormGroup
            label={t('status.reason')}
            labelFor="status-reason"
            helperText={
              tooShort ? tc('validation.tooShort', { min: MIN_REASON_LENGTH }) : t('status.reasonHelp')
            }
            intent={tooShort ? Intent.DANGER : Intent.NONE}
          >
            <TextArea
              id="status-reason"
              fill
              autoFocus
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              intent={tooShort ? Intent.DANGER : Intent.NONE}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('status.cancel')} onClick={close} />
              <Button type="submit" intent={Intent.DANGER} text={t('status.confirm')} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
