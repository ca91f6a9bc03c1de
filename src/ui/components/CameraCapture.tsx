import { Button, Intent } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { closeCamera, openCamera, takePhoto } from '../../services/media';

/** A camera preview and the button that takes a still (sign-in photo, auth photo). */
export function CameraCapture({
  busy,
  onPhoto,
  onDenied,
}: {
  busy: boolean;
  onPhoto: (photo: string) => void;
  onDenied: () => void;
}) {
  const { t } = useTranslation('auth');
  const video = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let cancelled = false;
    openCamera().then(
      (opened) => {
        if (cancelled) return closeCamera(opened);
        stream = opened;
        if (video.current) video.current.srcObject = opened;
        setReady(true);
      },
      () => {
        if (!cancelled) onDenied();
      },
    );
    return () => {
      cancelled = true;
      closeCamera(stream);
    };
  }, [onDenied]);

  return (
    <div className="studio-photo-step">
      <video
        ref={video}
        autoPlay
        muted
        playsInline
        aria-label={t('login.photo.video')}
        className="studio-photo-video"
      />
      <Button
        intent={Intent.PRIMARY}
        icon="camera"
        text={t('login.photo.take')}
        disabled={!ready}
        loading={busy}
        onClick={() => video.current && onPhoto(takePhoto(video.current))}
      />
    </div>
  );
}
