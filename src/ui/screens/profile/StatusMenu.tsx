import { Button, Classes, Intent, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { PROFILE_STATUSES } from '#contract/constants';
import type { Profile } from '#contract/profiles';
import type { FourEyesRule } from '#contract/review';
import { profileStatusMachine } from '../../../machines/profileStatus.machine';
import { changesMeanwhile, PROFILE_FIELDS } from '../../../machines/versionConflict';
import { profileDetailKeys } from '../../../services/api/profileDetail';
import { changeStatus } from '../../../services/api/profileWrites';
import { reviewKeys } from '../../../services/api/review';
import { ConflictDialog } from '../../components/ConflictDialog';
import { StatusTag, useProfileLabels } from '../../components/profileLabels';
import { ReasonDialog } from '../../components/ReasonDialog';
import { useChoiceMenu } from '../../components/useChoiceMenu';
import { showError, showSuccess, showWarning } from '../../toaster';
import { useAfterFirstPaint } from './useAfterFirstPaint';
import { useProfileValueFormat } from './useProfileValueFormat';

/**
 * The profile's status with the menu that changes it (docs/product/states.md, the profileStatus machine decides). The change
 * carries the profile's version; a conflict shows what changed meanwhile and keeps the chosen
 * status and reason for a re-apply. A change the company's four-eyes rules catch waits for a second reviewer, or
 * is refused: the server's answer says which, and the notice names the rules in the interface language.
 */
export function StatusMenu({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const { t: tp } = useTranslation('presence');
  const { t: tr } = useTranslation('calls');
  const labels = useProfileLabels();
  const format = useProfileValueFormat();
  const queryClient = useQueryClient();
  const { id: profileId, status, version } = profile;
  // The profile as it was when the reviewer chose a status: what a conflict is compared with.
  const seen = useRef(profile);
  const ruleNames = useCallback(
    (rules: readonly FourEyesRule[]) => rules.map((rule) => tr(`reviewRules.${rule}`)).join(', '),
    [tr],
  );
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
          notifyHeld: (_, held) => {
            void showWarning(t('status.held', { rules: ruleNames(held.rules) }));
            void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
          },
          notifyRefused: (_, refused) => {
            void showError(t(`status.refused.${refused.reason}`, { rules: ruleNames(refused.rules) }));
            void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profileId) });
          },
          reload: () =>
            void queryClient.invalidateQueries({ queryKey: profileDetailKeys.profile(profileId) }),
        },
      }),
    [profileId, queryClient, t, tc, ruleNames],
  );
  const [state, send] = useMachine(machine, { input: { profileId, status, version } });
  useEffect(() => send({ type: 'status.loaded', status, version }), [send, status, version]);
  const { current, target, conflict, reason } = state.context;
  // The button is disabled while the change is sent, and the dialog was opened from the menu (gone since):
  // the dialog cannot give it the focus back, so the button takes it once both the change and the dialog's
  // closing transition are done (whichever ends last), unless the user has moved on.
  const button = useRef<HTMLButtonElement>(null);
  const busy = state.hasTag('busy');
  const wasBusy = useRef(false);
  const takeFocusBack = () => {
    const active = document.activeElement;
    // Lost: on the page's body, or still in a dialog that is closing (its overlay no longer "open").
    const lost =
      active === null || active === document.body || !!active.closest('.bp6-overlay:not(.bp6-overlay-open)');
    if (lost && !button.current?.disabled) button.current?.focus();
  };
  useEffect(() => {
    const done = wasBusy.current && !busy;
    wasBusy.current = busy;
    if (done) takeFocusBack();
  });
  if (state.matches('idle')) seen.current = profile;
  // The menu closes as soon as a status is chosen (by click or Enter), so the confirmation dialog is alone; the
  // dialog or the change decides where the focus goes.
  const { popoverProps, choose } = useChoiceMenu();
  // The menu's popover notes its button in state as it mounts: a synchronous second render, which makes React
  // run all of the new profile screen's effects (a dozen requests) before its first paint. The first frame
  // shows the same button in the same wrapper; the popover takes it over one frame later, with the focus
  // if the button had it.
  const withMenu = useAfterFirstPaint();
  const focusedBeforeMenu = useRef<boolean | null>(null);
  if (withMenu && focusedBeforeMenu.current === null)
    focusedBeforeMenu.current = button.current !== null && document.activeElement === button.current;
  useLayoutEffect(() => {
    if (withMenu && focusedBeforeMenu.current) button.current?.focus();
  }, [withMenu]);
  const statusButton = (
    <Button
      variant="minimal"
      size="small"
      endIcon="caret-down"
      ref={button}
      loading={busy}
      aria-label={`${t('status.change')}: ${labels.status(current)}`}
      {...(withMenu ? {} : { 'aria-haspopup': 'menu' as const, 'aria-expanded': false })}
    >
      <StatusTag status={current} />
    </Button>
  );

  return (
    <>
      {!withMenu && <span className={Classes.POPOVER_TARGET}>{statusButton}</span>}
      {withMenu && (
        <PopoverNext
          placement="bottom-start"
          {...popoverProps}
          content={
            <Menu aria-label={t('status.menu')} role="listbox">
              {PROFILE_STATUSES.map((option) => (
                <MenuItem
                  key={option}
                  text={labels.status(option)}
                  roleStructure="listoption"
                  selected={option === current}
                  intent={option === 'Rejected' || option === 'Blacklisted' ? Intent.DANGER : Intent.NONE}
                  onClick={choose(() => send({ type: 'status.selected', status: option }))}
                />
              ))}
            </Menu>
          }
        >
          {statusButton}
        </PopoverNext>
      )}
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
        onClosed={takeFocusBack}
      />
      <ConflictDialog
        isOpen={state.hasTag('conflict')}
        subject={tp('conflict.profile')}
        changes={
          conflict
            ? changesMeanwhile(PROFILE_FIELDS, seen.current, conflict, {
                status: target,
                ...(reason ? { reject_reason: reason } : {}),
              })
            : []
        }
        busy={false}
        format={format}
        onReapply={() => send({ type: 'conflict.reapplied' })}
        onDiscard={() => send({ type: 'conflict.discarded' })}
        onClose={() => send({ type: 'conflict.discarded' })}
      />
    </>
  );
}
