import { Icon, Intent, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { type QualitySample, sampleIssues } from '#contract/callQualityRules';
import type { callMachine } from '../../../machines/call.machine';

/**
 * What the agent receives right now (issue 29 point 6): resolution, frame rate, packet loss and bitrate of the
 * last sample, each in warning colour with a warning icon when past its threshold (contract/callQuality.ts).
 */
export function CallQuality({ call }: { call: ActorRefFrom<typeof callMachine> }) {
  const { t, i18n } = useTranslation('calls');
  const inCall = useSelector(call, (s) => s.matches({ live: 'inCall' }));
  const sample = useSelector(call, (s) => s.context.quality.at(-1));
  if (!inCall) return null;
  const number = (value: number, digits = 0) =>
    value.toLocaleString(i18n.language, { maximumFractionDigits: digits });
  const figures: [keyof QualitySample, string][] = sample
    ? [
        ['height', t('quality.resolution', { width: sample.width, height: sample.height })],
        ['fps', t('quality.fps', { fps: number(sample.fps, 1) })],
        ['loss_pct', t('quality.loss', { loss: number(sample.loss_pct, 1) })],
        ['kbps', t('quality.bitrate', { kbps: number(sample.kbps) })],
      ]
    : [];
  const poor = sample ? sampleIssues(sample) : new Set<keyof QualitySample>();
  return (
    <ul className="studio-call-quality" aria-label={t('quality.label')} data-testid="call-quality">
      {!sample && (
        <li>
          <Tag minimal round>
            {t('quality.measuring')}
          </Tag>
        </li>
      )}
      {figures.map(([key, text]) => (
        <li key={key} data-quality={key} data-poor={poor.has(key) || undefined}>
          <Tag
            minimal
            round
            intent={poor.has(key) ? Intent.WARNING : Intent.NONE}
            icon={poor.has(key) ? <Icon icon="warning-sign" title={t('quality.poor')} /> : undefined}
          >
            {text}
          </Tag>
        </li>
      ))}
    </ul>
  );
}
