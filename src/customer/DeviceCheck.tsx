import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceOf, listMediaDevices, type MediaDevice } from '../services/callMedia';
import { DARK_BRIGHTNESS, type Levels, QUIET_LOUDNESS, watchLevels } from '../services/mediaLevels';
import { StreamVideo } from '../shared/StreamVideo';

/**
 * Before joining: the preview, the camera and microphone to use, and whether the picture is
 * bright enough and the sound heard. Joining is the customer's choice: the hints never block it.
 */
export function DeviceCheck({
  stream,
  onChoose,
  onJoin,
}: {
  stream: MediaStream | null;
  onChoose: (kind: 'camera' | 'microphone', deviceId: string) => void;
  onJoin: () => void;
}) {
  const { t } = useTranslation('customer');
  const [devices, setDevices] = useState<{ cameras: MediaDevice[]; microphones: MediaDevice[] }>({
    cameras: [],
    microphones: [],
  });
  const [levels, setLevels] = useState<Levels>({ brightness: null, loudness: null });
  useEffect(() => {
    if (!stream) return;
    let live = true;
    void listMediaDevices()
      .then((found) => live && setDevices(found))
      .catch(() => undefined);
    const stop = watchLevels(stream, setLevels);
    return () => {
      live = false;
      stop();
    };
  }, [stream]);

  const { brightness, loudness } = levels;
  return (
    <>
      <StreamVideo stream={stream} muted label={t('ownVideo')} className="customer-preview" />
      <div className="customer-devices">
        <DeviceSelect
          label={t('check.camera')}
          devices={devices.cameras}
          value={deviceOf(stream, 'video')}
          onChange={(id) => onChoose('camera', id)}
        />
        <DeviceSelect
          label={t('check.microphone')}
          devices={devices.microphones}
          value={deviceOf(stream, 'audio')}
          onChange={(id) => onChoose('microphone', id)}
        />
      </div>
      <div className="customer-levels">
        <Level label={t('check.light')} value={brightness} low={DARK_BRIGHTNESS} />
        <p role="status" className="customer-muted" data-testid="light-hint">
          {brightness === null
            ? t('check.lightWaiting')
            : brightness < DARK_BRIGHTNESS
              ? t('check.dark')
              : t('check.lightGood')}
        </p>
        <Level label={t('check.sound')} value={loudness} low={QUIET_LOUDNESS * 5} />
        <p role="status" className="customer-muted" data-testid="sound-hint">
          {loudness === null
            ? t('check.soundWaiting')
            : loudness < QUIET_LOUDNESS
              ? t('check.quiet')
              : t('check.soundGood')}
        </p>
      </div>
      <p className="customer-muted">{t('check.help')}</p>
      <button type="button" className="customer-button" onClick={onJoin}>
        {t('check.join')}
      </button>
    </>
  );
}

function DeviceSelect({
  label,
  devices,
  value,
  onChange,
}: {
  label: string;
  devices: MediaDevice[];
  value: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  return (
    <div className="customer-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={devices.length < 2}
        onChange={(event) => onChange(event.target.value)}
      >
        {devices.length === 0 && <option value={value}>…</option>}
        {devices.map((device) => (
          <option key={device.id} value={device.id}>
            {device.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A level as a meter (0 … 1); "low" below `low`. Nothing measured yet: an empty meter. */
function Level({ label, value, low }: { label: string; value: number | null; low: number }) {
  const id = useId();
  return (
    <div className="customer-field">
      <label htmlFor={id}>{label}</label>
      <meter id={id} min={0} max={1} low={low} optimum={1} value={value ?? 0} />
    </div>
  );
}
