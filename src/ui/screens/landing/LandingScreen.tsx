import { AnchorButton, Card, Classes, H2, H3, Icon } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { lastDays } from '../../../machines/statsFigures';
import { listProfiles } from '../../../services/api/profiles';
import { getBitool, getCallReport, statsKeys } from '../../../services/api/stats';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';
import { useFormat } from '../../format';
import { type Tile, type TileName, visibleTiles } from './tiles';
import '../stats/stats.css';

/**
 * /landing (and /reports): what a staff member sees after sign-in. One tile per screen the account may
 * visit, each with a link and, where one request answers it, a small figure.
 */
export function LandingScreen() {
  const { t } = useTranslation('stats');
  const { t: ts } = useTranslation('screens');
  const title = ts('landing.title');
  usePageTitle(title);
  const account = useActiveAccount();
  const tiles = account ? visibleTiles(account) : [];
  const figures = useTileFigures(new Set(tiles.map((tile) => tile.name)));
  return (
    <section className="studio-page studio-page-wide studio-stats" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <p>{account?.name ? t('landing.greeting', { name: account.name }) : t('landing.greetingAnonymous')}</p>
      <p className={Classes.TEXT_MUTED}>{t('landing.intro')}</p>
      <ul className={`studio-tiles ${Classes.LIST_UNSTYLED}`} aria-label={title}>
        {tiles.map((tile) => (
          <li key={tile.name}>
            <TileCard tile={tile} figure={figures[tile.name]} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A tile's figure: text, loading (undefined) or failed (null). */
type Figure = string | null | undefined;

function TileCard({ tile, figure }: { tile: Tile; figure: Figure | 'none' }) {
  const { t } = useTranslation('stats');
  const name = t(`landing.tiles.${tile.name}.title`);
  return (
    <Card className="studio-tile" aria-label={name} role="group">
      <div className="studio-tile-head">
        <Icon icon={tile.icon} size={20} />
        <H3>{name}</H3>
      </div>
      <p className={`studio-tile-body ${Classes.TEXT_MUTED}`}>{t(`landing.tiles.${tile.name}.body`)}</p>
      {figure !== 'none' && (
        <div className="studio-tile-figure" aria-live="polite">
          {figure === undefined ? (
            <span className={Classes.SKELETON}>{t('landing.tiles.customers.figure', { n: 0 })}</span>
          ) : figure === null ? (
            <span className={Classes.TEXT_MUTED}>{t('landing.summaryFailed')}</span>
          ) : (
            figure
          )}
        </div>
      )}
      <Link href={`~${tile.path}`} asChild>
        <AnchorButton
          role="link"
          icon="chevron-right"
          text={`${t('landing.open')}: ${name}`}
          variant="outlined"
        />
      </Link>
    </Card>
  );
}

/**
 * Small figures, each from one request the account is allowed to make: the profile count, the calls
 * and the average handling time of the last 30 days, and the dashboard's approvals and rejections.
 */
function useTileFigures(shown: Set<TileName>): Partial<Record<TileName, Figure | 'none'>> {
  const { t } = useTranslation('stats');
  const { duration, number } = useFormat();
  const [range] = useState(() => lastDays(new Date()));
  const profiles = useQuery({
    queryKey: ['landing', 'profiles'],
    queryFn: ({ signal }) => listProfiles({ limit: 1 }, { signal }),
    enabled: shown.has('customers'),
  });
  const calls = useQuery({
    queryKey: statsKeys.report(range),
    queryFn: ({ signal }) => getCallReport(range, { signal }),
    enabled: shown.has('calls') || shown.has('callStats'),
  });
  const dashboard = useQuery({
    queryKey: statsKeys.bitool(null),
    queryFn: ({ signal }) => getBitool(null, { signal }),
    enabled: shown.has('dashboard'),
  });
  const of = <T,>(query: { data?: T; isError: boolean }, text: (data: T) => string): Figure =>
    query.isError ? null : query.data === undefined ? undefined : text(query.data);
  return {
    customers: of(profiles, (page) => t('landing.tiles.customers.figure', { n: number(page.count) })),
    calls: of(calls, (report) => t('landing.tiles.calls.figure', { n: number(report.totals.calls) })),
    callStats: of(calls, (report) =>
      t('landing.tiles.callStats.figure', { duration: duration(report.totals.average_handling_seconds) }),
    ),
    dashboard: of(dashboard, (data) =>
      t('landing.tiles.dashboard.figure', {
        approved: number(data.totals.approved),
        rejected: number(data.totals.rejected),
      }),
    ),
    entities: 'none',
    admin: 'none',
    settings: 'none',
    companySettings: 'none',
  };
}
