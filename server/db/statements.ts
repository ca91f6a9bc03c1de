/** Named statements per query text, on PGlite and on node-postgres alike, and the proxy both wrappers are built with. */

/**
 * At most this many distinct texts of reads, and as many of writes, get a prepared statement per connection:
 * writes of lists whose length varies (each length its own text) cannot use up the reads' share.
 */
export const MAX_PREPARED_STATEMENTS = 500;

/**
 * What a text is prepared as: a read (a SELECT) or a write (a WITH, an INSERT, UPDATE or DELETE); DDL,
 * transaction control and session settings are not prepared (PREPARE does not take them).
 */
function kindOf(text: string): 'read' | 'write' | null {
  const keyword = /^\s*(select|with|insert|update|delete)\s/i.exec(text)?.[1];
  if (!keyword) return null;
  return keyword.toLowerCase() === 'select' ? 'read' : 'write';
}

/** Names for query texts, bounded per kind: past the bound a text is run unprepared. */
export function statementNames(prefix: string) {
  const names = new Map<string, string | null>();
  const named = { read: 0, write: 0 };
  return {
    nameOf(text: string): string | null {
      const known = names.get(text);
      if (known !== undefined) return known;
      const kind = kindOf(text);
      if (!kind || named[kind] >= MAX_PREPARED_STATEMENTS) return null;
      named[kind] += 1;
      const name = `${prefix}${names.size + 1}`;
      names.set(text, name);
      return name;
    },
    /** The text cannot be prepared (or its statement vanished): run it unprepared from now on. */
    refuse(text: string): void {
      names.set(text, null);
    },
  };
}

/** `target` with some of its members replaced; its own methods stay bound to it. */
export function overriding<T extends object>(target: T, overrides: Partial<Record<keyof T, unknown>>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}
