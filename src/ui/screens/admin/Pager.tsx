import { Button, ButtonGroup, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from './useUrlView';

/** Rows x–y of n, page size, previous and next. */
export function Pager({
  count,
  page,
  size,
  label,
  onChange,
}: {
  count: number;
  page: number;
  size: number;
  label: string;
  onChange: (change: { page?: number; size?: number }) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const number = new Intl.NumberFormat(i18n.language);
  const from = (page - 1) * size + 1;
  const to = Math.min(count, page * size);
  const last = Math.max(1, Math.ceil(count / size));
  return (
    <nav className="studio-pager" aria-label={label}>
      <span role="status">
        {t('paging.range', { from: number.format(from), to: number.format(to), count: number.format(count) })}
      </span>
      <HTMLSelect
        minimal
        aria-label={t('paging.pageSize')}
        value={size}
        onChange={(event) => onChange({ size: Number(event.currentTarget.value) })}
        options={PAGE_SIZES.map((s) => ({ value: s, label: String(s) }))}
      />
      <ButtonGroup>
        <Button
          icon="chevron-left"
          aria-label={t('paging.previous')}
          disabled={page <= 1}
          onClick={() => onChange({ page: page - 1 })}
        />
        <Button
          icon="chevron-right"
          aria-label={t('paging.next')}
          disabled={page >= last}
          onClick={() => onChange({ page: page + 1 })}
        />
      </ButtonGroup>
    </nav>
  );
}
