import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { frozenAnswersSerializerCompiler } from '../../server/http/serializer';

/** A route's serializer whose schema counts how often it checked an answer. */
function counting() {
  let checks = 0;
  const schema = z.object({
    total: z.number().refine(() => {
      checks += 1;
      return true;
    }),
  });
  const serialize = frozenAnswersSerializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });
  return { serialize, checks: () => checks };
}

describe('the response serializer', () => {
  it('checks and writes a frozen answer once, then writes it again from that first writing', () => {
    const { serialize, checks } = counting();
    const answer = Object.freeze({ total: 3, extra: 'not in the schema' });
    expect(serialize(answer)).toBe('{"total":3}');
    expect(serialize(answer)).toBe('{"total":3}');
    expect(checks()).toBe(1);
    // An equal answer that is another object is checked on its own.
    expect(serialize(Object.freeze({ total: 3 }))).toBe('{"total":3}');
    expect(checks()).toBe(2);
  });

  it('checks every answer that is not frozen, each time (it may have changed)', () => {
    const { serialize, checks } = counting();
    const answer = { total: 1 };
    expect(serialize(answer)).toBe('{"total":1}');
    answer.total = 2;
    expect(serialize(answer)).toBe('{"total":2}');
    expect(checks()).toBe(2);
  });

  it('refuses a frozen answer that breaks its schema, every time', () => {
    const { serialize } = counting();
    const wrong = Object.freeze({ total: 'three' });
    expect(() => serialize(wrong)).toThrow();
    expect(() => serialize(wrong)).toThrow();
  });
});
