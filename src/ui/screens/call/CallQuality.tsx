import { Icon, Intent, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useId, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  type QualityIssue,
  type QualitySample,
  sampleIssues,
  summarizeQuality,
} from '#contract/callQualityRules';
import type { callMachine } from '../../../machines/call.machine';
import { callPaths } from '../../../services/callPath';

const NO_ISSUES: readonly QualityIssue[] = [];

/**
 * What each side of the call receives right now: the agent's own reception and the customer's
 * (told live by the server), each with resolution, frame rate, packet loss and bitrate of the last sample, in
 * warning colour with a warning icon when past its threshold, and what the call so far was poor in
 * (contract/callQualityRules.ts).
 */
export function CallQuality({ call }: { call: ActorRefFrom<typeof callMachine> }) {
  const { t } = useTranslation('calls');
  const inCall = useSelector(call, (s) => s.matches({ live: 'inCall' }));
  const samples = useSelector(call, (s) => s.context.quality);
  const customer = useSelector(call, (s) => s.context.customerQuality);
  const ownIssues = useMemo(() => summarizeQuality(samples)?.issues ?? NO_ISSUES, [samples]);
  const callId = useSelector(call, (s) => s.context.call.call_id);
  const path = useSyncExternalStore(callPaths.subscribe, () => callPaths.get(callId));
  if (!inCall) return null;
  return (
    <section className="studio-call-quality" aria-label={t('quality.label')} data-testid="call-quality">
      {path && (
        <p className="studio-call-quality-path" data-testid="call-path" data-path={path}>
          <Tag minimal round icon={path.startsWith('turn') ? 'shield' : 'exchange'}>
            {t('quality.path.label')}: {t(`quality.path.${path}`)}
          </Tag>
        </p>
      )}
      <QualityRow
        side="agent"
        title={t('quality.agentReceives')}
        sample={samples.at(-1)}
        issues={ownIssues}
      />
      <QualityRow
        side="customer"
        title={t('quality.customerReceives')}
        sample={customer?.sample}
        issues={customer?.summary.issues ?? NO_ISSUES}
      />
    </section>
  );
}

function QualityRow({
  side,
  title,
  sample,
  issues,
}: {
  side: 'agent' | 'customer';
  title: string;
  sample: QualitySample | undefined;
  issues: readonly QualityIssue[];
}) {
  const { t, i18n } = useTranslation('calls');
  const labelId = useId();
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
    <div className="studio-call-quality-side">
      <span id={labelId} className="studio-call-quality-title">
        {title}
      </span>
      <ul aria-labelledby={labelId} data-side={side}>
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
        {issues.map((issue) => (
          <li key={issue} data-issue={issue}>
            <Tag round intent={Intent.DANGER} icon="warning-sign">
              {t(`quality.live.${issue}`)}
            </Tag>
          </li>
        ))}
      </ul>
    </div>
  );
}
