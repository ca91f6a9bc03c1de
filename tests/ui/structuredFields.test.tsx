/** Structured data (the government check of GET /profile/{id}/nvi) as labelled fields, in both languages. */
import { act, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchLanguage } from '../../src/services/i18n';
import { humaniseKey, StructuredFields } from '../../src/ui/components/StructuredFields';
import { missingKeys } from './setup';

const nvi = {
  government_check: {
    verified: true,
    mother_name: 'Ayşe',
    father_name: 'Mehmet',
    registry_place: 'İzmir',
    checked_at: '2026-11-02T10:30:00.000Z',
    birth_date: '1980-03-01',
    household_size: 4,
    previous_addresses: [
      { city: 'Ankara', district: 'Çankaya' },
      { city: 'Bursa', district: null },
    ],
    nicknames: ['Ayşo', 'Ayşecik'],
    deceased: false,
    notes: '',
  },
  registryRecordId: 'NV-0042',
};

/** The text of the value (dd) that belongs to the label (dt) `label`, inside `container`. */
function fieldValue(label: string, container: HTMLElement = document.body): string {
  const term = within(container).getAllByText(label, { selector: 'dt' })[0];
  return term?.nextElementSibling?.textContent ?? '';
}

beforeAll(async () => {
  await i18next.loadNamespaces('fields');
});
afterAll(async () => {
  if (i18next.language !== 'en-US') await act(() => switchLanguage('en-US'));
});

describe('StructuredFields', () => {
  it('labels known keys, humanises unknown ones and writes values in English', () => {
    render(<StructuredFields data={nvi} />);
    const group = screen.getByText('Government check', { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(fieldValue('Verified', group)).toBe('Yes');
    expect(fieldValue('Mother’s name', group)).toBe('Ayşe');
    expect(fieldValue('Father’s name', group)).toBe('Mehmet');
    expect(fieldValue('Place of registry', group)).toBe('İzmir');
    expect(fieldValue('Date of birth', group)).toBe('Mar 1, 1980');
    expect(fieldValue('Checked at', group)).toMatch(/^Nov 2, 2026/);
    // Keys without a text of their own: still a readable label, never the raw key or JSON.
    expect(fieldValue('Household size', group)).toBe('4');
    expect(fieldValue('Nicknames', group)).toBe('Ayşo, Ayşecik');
    expect(fieldValue('Deceased', group)).toBe('No');
    expect(fieldValue('Notes', group)).toBe('—');
    expect(fieldValue('Registry record id')).toBe('NV-0042');
    // A list of objects: numbered groups of their own fields.
    const items = within(
      screen.getByText('Previous addresses').nextElementSibling as HTMLElement,
    ).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveAccessibleName('Item 1');
    expect(fieldValue('City', items[0])).toBe('Ankara');
    expect(fieldValue('District', items[0])).toBe('Çankaya');
    expect(fieldValue('District', items[1] as HTMLElement)).toBe('—');
    expect(document.body.textContent).not.toContain('{');
    expect(document.body.textContent).not.toContain('government_check');
    expect(missingKeys.filter((key) => key.startsWith('fields:'))).toEqual([]);
  });

  it('shows the same fields in Turkish after a language switch', async () => {
    render(<StructuredFields data={nvi} />);
    await act(() => switchLanguage('tr'));
    const group = screen.getByText('Devlet kaydı kontrolü', { selector: 'dt' })
      .nextElementSibling as HTMLElement;
    expect(fieldValue('Doğrulandı', group)).toBe('Evet');
    expect(fieldValue('Anne adı', group)).toBe('Ayşe');
    expect(fieldValue('Nüfusa kayıtlı olduğu yer', group)).toBe('İzmir');
    expect(fieldValue('Doğum tarihi', group)).toBe('1 Mar 1980');
    expect(fieldValue('Deceased', group)).toBe('Hayır');
    const items = within(
      screen.getByText('Previous addresses').nextElementSibling as HTMLElement,
    ).getAllByRole('listitem');
    expect(items[1]).toHaveAccessibleName('2. kayıt');
    expect(fieldValue('İlçe', items[0])).toBe('Ankara');
  });

  it('makes keys readable in every spelling', () => {
    expect(humaniseKey('mother_name')).toBe('Mother name');
    expect(humaniseKey('motherName')).toBe('Mother name');
    expect(humaniseKey('mother-name')).toBe('Mother name');
    expect(humaniseKey('ID')).toBe('Id');
    expect(humaniseKey('___')).toBe('___');
  });

  it('shows objects nested deeper than it unfolds as text, and empty ones as a dash', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: 1 } } } } } }, empty: {}, none: [] };
    render(<StructuredFields data={deep} />);
    expect(screen.getByText('{"g":1}')).toBeInTheDocument();
    expect(fieldValue('Empty')).toBe('—');
    expect(fieldValue('None')).toBe('—');
  });
});
