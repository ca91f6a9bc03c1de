import { describe, expect, it } from 'vitest';
import { MAX_PREPARED_STATEMENTS, statementNames } from '../../server/db/statements';

describe('statement names', () => {
  it('names reads and writes once each, and no DDL, transaction control or setting', () => {
    const names = statementNames('t_');
    const read = names.nameOf('select 1');
    expect(read).toBe('t_1');
    expect(names.nameOf('select 1')).toBe(read);
    expect(names.nameOf('with x as (select 1) insert into t select * from x')).toBe('t_2');
    expect(names.nameOf('insert into t values ($1)')).toBe('t_3');
    expect(names.nameOf('  UPDATE t set a = $1')).toBe('t_4');
    expect(names.nameOf('delete from t where a = $1')).toBe('t_5');
    for (const text of ['create table t (a int)', 'begin', 'set local x = 1', 'savepoint s', 'selected'])
      expect(names.nameOf(text)).toBeNull();
  });

  it('keeps a share for reads that writes of every list length cannot use up, and the other way round', () => {
    const names = statementNames('t_');
    const given: (string | null)[] = [];
    for (let n = 1; n <= MAX_PREPARED_STATEMENTS + 100; n++)
      given.push(
        names.nameOf(`insert into t values ${Array.from({ length: n }, (_, i) => `($${i + 1})`).join(', ')}`),
      );
    expect(given.filter((name) => name !== null)).toHaveLength(MAX_PREPARED_STATEMENTS);
    expect(
      names.nameOf(`insert into t values ($1), ($2), ($3), ($4), ($5), ($6), ($7) returning a`),
    ).toBeNull();
    const read = names.nameOf('select a from t where a = $1');
    expect(read).not.toBeNull();
    for (let n = 1; n < MAX_PREPARED_STATEMENTS; n++)
      given.push(names.nameOf(`select a from t where a in (${n})`));
    expect(names.nameOf('select a from t where a = $2')).toBeNull();
    // Named texts keep their names, each a different one.
    expect(names.nameOf('select a from t where a = $1')).toBe(read);
    const named = [...given, read].filter((name) => name !== null);
    expect(new Set(named).size).toBe(2 * MAX_PREPARED_STATEMENTS);
  });

  it('runs a refused text unprepared from then on', () => {
    const names = statementNames('t_');
    expect(names.nameOf('select $1 is null')).toBe('t_1');
    names.refuse('select $1 is null');
    expect(names.nameOf('select $1 is null')).toBeNull();
    expect(names.nameOf('select 2')).toBe('t_2');
  });
});
