import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { tallestBar, valueAxis } from '../../../machines/chartAxis';

/** The tooltip follows the theme through the CSS variables of stats.css. */
const TOOLTIP_STYLE = {
  background: 'var(--studio-chart-tooltip-bg)',
  borderColor: 'var(--studio-chart-tooltip-border)',
  color: 'var(--studio-chart-tooltip-text)',
};

export interface Series {
  key: string;
  label: string;
  color: string;
}

/**
 * One titled bar chart (stacked when `stacked`), or a line saying there is nothing to draw. The figure
 * is labelled by its title; the numbers themselves are in the table beside it.
 */
export function BarChartCard({
  title,
  rows,
  xKey,
  series,
  stacked = false,
  layout = 'horizontal',
  formatX,
  height = 260,
}: {
  title: string;
  rows: object[];
  /** The field of each row that names its bar (period, agent, status). */
  xKey: string;
  series: Series[];
  stacked?: boolean;
  /** 'vertical': categories on the Y axis (long names, e.g. agents). */
  layout?: 'horizontal' | 'vertical';
  formatX?: (value: string) => string;
  height?: number;
}) {
  const { t } = useTranslation('stats');
  const titleId = useId();
  const empty = rows.length === 0 || series.length === 0;
  const category = { dataKey: xKey, tickFormatter: formatX, type: 'category' as const };
  // A round top above the tallest bar: the bars never touch the top of the chart.
  const axis = valueAxis(
    tallestBar(
      rows,
      series.map((s) => s.key),
      stacked,
    ),
  );
  const values = {
    type: 'number' as const,
    allowDecimals: false,
    domain: [0, axis.top],
    ticks: axis.ticks,
  };

  return (
    <figure className="studio-chart" aria-labelledby={titleId}>
      <figcaption id={titleId} className="studio-chart-title">
        {title}
      </figcaption>
      {empty ? (
        <p className="studio-chart-empty">{t('dashboard.charts.noData')}</p>
      ) : (
        <ResponsiveContainer width="100%" height={height}>
          <BarChart data={rows} layout={layout} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid
              strokeDasharray="3 3"
              vertical={layout === 'vertical'}
              horizontal={layout !== 'vertical'}
            />
            {layout === 'vertical' ? (
              <>
                <XAxis {...values} />
                <YAxis {...category} width={140} />
              </>
            ) : (
              <>
                <XAxis {...category} minTickGap={12} />
                <YAxis {...values} width={48} />
              </>
            )}
            <Tooltip
              labelFormatter={formatX ? (label) => formatX(String(label)) : undefined}
              cursor={{ className: 'studio-chart-cursor' }}
              contentStyle={TOOLTIP_STYLE}
            />
            {series.length > 1 && <Legend />}
            {series.map((s) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                fill={s.color}
                stackId={stacked ? 'stack' : undefined}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
