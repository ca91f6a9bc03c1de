/** The Employees tab of a business entity: the ownership chart, UBO marks, the threshold and refused data. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BusinessEntity } from '#contract/entities';
import { findEntity } from '../../src/services/entities/sampleEntities';
import { EmployeesTab } from '../../src/ui/screens/entity/EmployeesTab';
import { missingKeys } from './setup';

const costaAzul = findEntity(8) as BusinessEntity;

beforeAll(async () => {
  await i18next.loadNamespaces(['entities', 'profile']);
});

describe.each([
  ['plain', false],
  ['StrictMode', true],
])('Employees tab (%s)', (_name, strict) => {
  const show = (entity: BusinessEntity) =>
    render(
      strict ? (
        <StrictMode>
          <EmployeesTab entity={entity} />
        </StrictMode>
      ) : (
        <EmployeesTab entity={entity} />
      ),
    );

  it('draws the chart with effective shares through the intermediate company and marks the UBOs', () => {
    window.history.replaceState(null, '', '/entity/8?tab=employees');
    show(costaAzul);
    const chart = screen.getByRole('list', { name: 'Ownership chart' });
    expect(within(chart).getByText('holds 52% · effective 52%')).toBeInTheDocument();
    expect(within(chart).getAllByText('holds 50% · effective 26%')).toHaveLength(2);
    expect(within(chart).getAllByText('holds 24% · effective 24%')).toHaveLength(2);
    // Each person's four nodes carry the mark: 24 % + 26 % = 50 %, above 25 %.
    expect(within(chart).getAllByText('UBO')).toHaveLength(4);
    const rows = within(screen.getByRole('table', { name: 'Individuals' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[5]?.textContent)).toEqual([
      '50%through 1 company layer',
      '50%through 1 company layer',
    ]);
    expect(missingKeys).toEqual([]);
  });

  it('takes another threshold from the field, and refuses one that is not a percentage', async () => {
    window.history.replaceState(null, '', '/entity/8?tab=employees');
    const user = userEvent.setup();
    show(costaAzul);
    const field = screen.getByRole('spinbutton', { name: 'UBO threshold' });
    await user.clear(field);
    await user.type(field, '50');
    expect(window.location.search).toBe('?tab=employees&threshold=50');
    expect(within(screen.getByRole('list', { name: 'Ownership chart' })).queryAllByText('UBO')).toHaveLength(
      0,
    );
    await user.clear(field);
    await user.type(field, '0');
    expect(
      screen.getByText('Enter a percentage above 0 and up to 100, with at most two decimals.'),
    ).toBeVisible();
    // The last valid threshold stays in force.
    expect(window.location.search).toBe('?tab=employees&threshold=50');
  });

  it('refuses a cycle of companies and names it', () => {
    window.history.replaceState(null, '', '/entity/8?tab=employees');
    const cyclic: BusinessEntity = {
      ...costaAzul,
      companies: [
        { id: 'c1', name: 'Alpha Holding', country: 'CY', registration_number: '1' },
        { id: 'c2', name: 'Beta Holding', country: 'MT', registration_number: '2' },
      ],
      ownership: [
        { owner: 'c1', owned: 'entity', share: 60 },
        { owner: 'c2', owned: 'c1', share: 100 },
        { owner: 'c1', owned: 'c2', share: 100 },
      ],
    };
    show(cyclic);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The ownership cannot be computed');
    expect(alert).toHaveTextContent(
      'The companies own each other in a circle: Alpha Holding → Beta Holding → Alpha Holding.',
    );
    expect(screen.queryByRole('list', { name: 'Ownership chart' })).toBeNull();
  });
});
