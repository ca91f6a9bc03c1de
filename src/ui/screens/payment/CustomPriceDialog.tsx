import { Button, DialogBody, DialogFooter, FormGroup, NumericInput, TextArea } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MINIMUM_COMMITMENT_VERIFICATIONS } from '#contract/payments';
import { getPaymentServiceConfig, paymentKeys, requestCustomPrice } from '../../../services/api/payments';
import { useActiveAccount } from '../../app/useAccounts';
import { Dialog } from '../../components/Dialog';
import { showError, showSuccess } from '../../toaster';
import { usePaymentErrorText } from './format';

/**
 * A custom-price request (a plan of 1000 verifications or more, at a custom price), sent to
 * the provider's support with the volume. The minimum comes from the payment service's `GET /config`.
 */
export function CustomPriceDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation('payment');
  const account = useActiveAccount();
  const errorText = usePaymentErrorText();
  const config = useQuery({
    queryKey: paymentKeys.serviceConfig(i18n.language),
    queryFn: ({ signal }) => getPaymentServiceConfig(i18n.language, { signal }),
    enabled: isOpen,
    staleTime: 5 * 60_000,
  });
  const min = config.data?.minimum_commitment.verifications ?? MINIMUM_COMMITMENT_VERIFICATIONS;
  const [volume, setVolume] = useState<number>(MINIMUM_COMMITMENT_VERIFICATIONS);
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const tooLow = !Number.isFinite(volume) || volume < min;

  const send = async () => {
    setTouched(true);
    if (tooLow || !account) return;
    setSending(true);
    try {
      await requestCustomPrice({
        email: account.email,
        message: t('custom.body', { volume, message: message.trim() }).trim(),
        page: '/company-settings',
      });
      void showSuccess(t('custom.sent'));
      setMessage('');
      setTouched(false);
      onClose();
    } catch (error) {
      void showError(errorText(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t('custom.title')} icon="envelope">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <DialogBody>
          <p>{t('custom.intro', { min, email: account?.email ?? '' })}</p>
          <FormGroup
            label={t('custom.volume')}
            labelFor="custom-price-volume"
            helperText={
              touched && tooLow ? t('custom.volumeTooLow', { min }) : t('custom.volumeHint', { min })
            }
            intent={touched && tooLow ? 'danger' : 'none'}
          >
            <NumericInput
              id="custom-price-volume"
              value={Number.isFinite(volume) ? volume : ''}
              min={min}
              stepSize={100}
              majorStepSize={1000}
              buttonPosition="none"
              minorStepSize={null}
              allowNumericCharactersOnly
              clampValueOnBlur={false}
              intent={touched && tooLow ? 'danger' : 'none'}
              onValueChange={(value) => setVolume(value)}
              fill
            />
          </FormGroup>
          <FormGroup label={t('custom.message')} labelFor="custom-price-message">
            <TextArea
              id="custom-price-message"
              value={message}
              maxLength={1500}
              onChange={(event) => setMessage(event.target.value)}
              fill
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('custom.cancel')} onClick={onClose} disabled={sending} />
              <Button
                type="submit"
                intent="primary"
                icon="envelope"
                text={t('custom.send')}
                loading={sending}
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
