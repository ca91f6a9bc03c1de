/** Named statements per query text, on PGlite and on node-postgres alike, and the proxy both wrappers are built with. */

/** At most this many distinct query texts get a server-side prepared statement per connection. */
export const MAX_PREPARED_STATEMENTS = 500;

/**
 * The kinds prepared: reads and writes (a SELECT, a WITH, an INSERT, UPDATE or DELETE), not DDL, transaction
 * control or session settings, which PREPARE does not take.
 */
const isPreparable = (text: string) => /^\s*(?:select|with|insert|update|delete)\s/i.test(text);

/** Names for query texts, bounded: past the bound a text is run unprepared. */
export function statementNames(prefix: string) {
  const names = new Map<string, string | null>();
  return {
    nameOf(text: string): string | null {
      const known = names.get(text);
      if (known !== undefined) return known;
      if (names.size >= MAX_PREPARED_STATEMENTS || !isPreparable(text)) return null;
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
