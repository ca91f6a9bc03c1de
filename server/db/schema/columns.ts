/** The column helpers every table file shares. */
import { integer, timestamp } from 'drizzle-orm/pg-core';

export const id = () => integer().primaryKey().generatedByDefaultAsIdentity();
export const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const ts = () => timestamp({ withTimezone: true, mode: 'date' });
