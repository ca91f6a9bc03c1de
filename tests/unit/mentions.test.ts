/** The @mention syntax of notes (contract/notifications.ts), shared by the editor and the server. */
import { describe, expect, it } from 'vitest';
import { mentionAt, mentionHandle, parseMentions } from '#contract/notifications';

describe('parseMentions', () => {
  it('finds local parts and whole addresses, lower-case, once each, in order', () => {
    expect(parseMentions('@Agent please check, cc @reviewer and @agent again')).toEqual([
      'agent',
      'reviewer',
    ]);
    expect(parseMentions('ask @admin@acme.test about it')).toEqual(['admin@acme.test']);
    expect(parseMentions('(@agent) @reviewer: see')).toEqual(['agent', 'reviewer']);
  });

  it('drops punctuation that ends a mention and keeps dots inside it', () => {
    expect(parseMentions('Thanks @ayse.yilmaz. And @bob-.')).toEqual(['ayse.yilmaz', 'bob']);
    expect(parseMentions('@ali+kyc, please')).toEqual(['ali+kyc']);
  });

  it('reads Turkish letters in handles', () => {
    expect(parseMentions('@gül bakar mısın')).toEqual(['gül']);
  });

  it('is not fooled by e-mail addresses, lone at signs or handles glued to words', () => {
    expect(parseMentions('write to agent@acme.test')).toEqual([]);
    expect(parseMentions('me@ and @ alone, a@@b')).toEqual([]);
    expect(parseMentions('x@agent')).toEqual([]);
    expect(parseMentions('')).toEqual([]);
  });
});

describe('mentionAt', () => {
  it('tells the handle being typed at the caret and where its @ is', () => {
    expect(mentionAt('Hi @ag', 6)).toEqual({ query: 'ag', start: 3 });
    expect(mentionAt('@', 1)).toEqual({ query: '', start: 0 });
    expect(mentionAt('Hi @agent done', 14)).toBeNull();
    expect(mentionAt('mail agent@ac', 13)).toBeNull();
  });
});

describe('mentionHandle', () => {
  it('is the local part unless another colleague shares it', () => {
    expect(mentionHandle('Agent@Acme.test', 1)).toBe('agent');
    expect(mentionHandle('Agent@Acme.test', 2)).toBe('agent@acme.test');
  });
});
