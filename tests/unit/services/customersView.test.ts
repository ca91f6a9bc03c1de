import { describe, expect, it } from 'vitest';
import { readView, toRequest } from '../../../src/ui/screens/customers/useListParams';

describe('customers list view in the URL', () => {
  it('reads defaults from an empty query', () => {
    expect(readView(new URLSearchParams())).toEqual({
      search: '',
      status: '',
      risk_level: '',
      source: '',
      created_after: '',
      created_before: '',
      ordering: '-created_at',
      page: 1,
      size: 20,
    });
  });

  it('keeps valid values and drops invalid ones instead of failing', () => {
    const view = readView(
      new URLSearchParams(
        'search=ayşe&status=Pending%20Review&risk_level=Very%20High&page=3&size=50&ordering=-name&created_after=2026-01-01',
      ),
    );
    expect(view).toMatchObject({
      search: 'ayşe',
      status: 'Pending Review',
      risk_level: 'Very High',
      page: 3,
      size: 50,
      ordering: '-name',
      created_after: '2026-01-01',
    });
    const bad = readView(
      new URLSearchParams('status=Nope&risk_level=x&page=-2&size=7&ordering=1;drop&created_before=tomorrow'),
    );
    expect(bad).toMatchObject({
      status: '',
      risk_level: '',
      page: 1,
      size: 20,
      ordering: '-created_at',
      created_before: '',
    });
  });

  it('turns page and size into limit and offset and leaves empty filters out', () => {
    const request = toRequest(readView(new URLSearchParams('page=3&size=50&status=Approved')));
    expect(request).toEqual({
      search: undefined,
      status: 'Approved',
      risk_level: undefined,
      source: undefined,
      created_after: undefined,
      created_before: undefined,
      ordering: '-created_at',
      limit: 50,
      offset: 100,
    });
  });
});

describe('quick add id', () => {
  it('is qa_ and 10 to 20 letters and digits', async () => {
    const { quickAddId } = await import('../../../src/services/api/profileWrites');
    const { QUICK_ADD_ID_PATTERN } = await import('#contract/constants');
    for (let i = 0; i < 200; i++) expect(quickAddId()).toMatch(QUICK_ADD_ID_PATTERN);
    expect(quickAddId(() => 0)).toBe('qa_aaaaaaaaaa');
    expect(quickAddId(() => 0.9999)).toMatch(/^qa_9{20}$/);
  });
});
