import { Button, ButtonGroup, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../format';

/** The pager's texts, from the screen's own namespace (each list screen has them). */
export type PagerText = (
  key: 'range' | 'pageSize' | 'previous' | 'next',
  values?: { from: string; to: string; count: string },
) => string;

/** Rows x–y of n ("about n" when the server estimated the count), page size, previous and next. */
export function Pager({
  count,
  estimated = false,
  page,
  size,
  sizes,
  label,
  text,
  onChange,
}: {
  count: number;
  /** The server's `count_is_estimate`: a long list counted approximately (docs/decisions/0164-keyset-lists.md). */
  estimated?: boolean;
  page: number;
  size: number;
  sizes: readonly number[];
  label: string;
  text: PagerText;
  onChange: (change: { page?: number; size?: number }) => void;
}) {
  const { number } = useFormat();
  const { t } = useTranslation('common');
  const total = estimated ? t('aboutCount', { n: number(count) }) : number(count);
  const from = (page - 1) * size + 1;
  const to = Math.min(count, page * size);
  const last = Math.max(1, Math.ceil(count / size));
  return (
    <nav className="studio-pager" aria-label={label}>
      <span role="status">{text('range', { from: number(from), to: number(to), count: total })}</span>
      <HTMLSelect
        minimal
        aria-label={text('pageSize')}
        value={size}
        onChange={(event) => onChange({ size: Number(event.currentTarget.value) })}
        options={sizes.map((s) => ({ value: s, label: String(s) }))}
      />
      <ButtonGroup>
        <Button
          icon="chevron-left"
          aria-label={text('previous')}
          disabled={page <= 1}
          onClick={() => onChange({ page: page - 1 })}
        />
        <Button
          icon="chevron-right"
          aria-label={text('next')}
          disabled={page >= last}
          onClick={() => onChange({ page: page + 1 })}
        />
      </ButtonGroup>
    </nav>
  );
}
