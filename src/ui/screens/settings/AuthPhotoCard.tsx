import { Button, Callout, Card, DialogBody, H4, Intent } from '@blueprintjs/core';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '#contract/users';
import { isApiError } from '../../../services/api/http';
import { uploadAuthPhoto } from '../../../services/api/users';
import { CameraCapture } from '../../components/CameraCapture';
import { Dialog } from '../../components/Dialog';
import { showSuccess } from '../../toaster';
import { PasswordPrompt } from './PasswordPrompt';

type Step =
  | { name: 'idle' }
  | { name: 'camera' }
  | { name: 'password'; photo: string; error: string | null }
  | { name: 'saving'; photo: string };

/** The user's sign-in photo (POST /user/{id}/photo): take one with the camera, confirm with the password. */
export function AuthPhotoCard({ user, onSaved }: { user: User; onSaved: () => Promise<unknown> }) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [cameraDenied, setCameraDenied] = useState(false);
  const onDenied = useCallback(() => setCameraDenied(true), []);

  const save = async (photo: string, password: string) => {
    setStep({ name: 'saving', photo });
    try {
      await uploadAuthPhoto(user.id, { password, photo });
      await onSaved();
      setStep({ name: 'idle' });
      void showSuccess(tc('success.authPhotoUpdated'));
    } catch (error) {
      const detail = isApiError(error) ? error.detail : null;
      setStep({
        name: 'password',
        photo,
        error: detail === 'Wrong password' ? tc('messages.wrongPassword') : tc('messages.error'),
      });
    }
  };

  return (
    <Card className="studio-settings-card">
      <H4>{t('settings.photo.title')}</H4>
      {user.photo ? (
        <img src={user.photo} alt={t('settings.photo.alt')} className="studio-auth-photo" />
      ) : (
        <p>{t('settings.photo.none')}</p>
      )}
      <Button icon="camera" text={t('settings.photo.take')} onClick={() => setStep({ name: 'camera' })} />
      <Dialog
        isOpen={step.name === 'camera'}
        title={t('settings.photo.title')}
        icon="camera"
        onClose={() => setStep({ name: 'idle' })}
      >
        <DialogBody>
          {cameraDenied ? (
            <Callout intent={Intent.DANGER} icon="error" role="alert">
              {tc('messages.noCameraPermission')}
            </Callout>
          ) : (
            step.name === 'camera' && (
              <CameraCapture
                busy={false}
                onPhoto={(photo) => setStep({ name: 'password', photo, error: null })}
                onDenied={onDenied}
              />
            )
          )}
        </DialogBody>
      </Dialog>
      <PasswordPrompt
        isOpen={step.name === 'password' || step.name === 'saving'}
        busy={step.name === 'saving'}
        error={step.name === 'password' ? step.error : null}
        onConfirm={(password) => step.name === 'password' && void save(step.photo, password)}
        onCancel={() => setStep({ name: 'idle' })}
      />
    </Card>
  );
}
