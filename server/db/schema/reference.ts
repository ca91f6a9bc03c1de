/** Reference data: countries, document types and the packages a company can buy. */
import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id } from './columns';

export const countries = pgTable('countries', {
  code: text().primaryKey(),
  name: text().notNull(),
  nameTr: text().notNull(),
});

export const documentTypes = pgTable('document_types', {
  id: id(),
  name: text().notNull(),
  documentClass: text().notNull(),
  country: text(),
  sortOrder: integer().notNull().default(0),
});

export const packages = pgTable('packages', {
  id: id(),
  name: text().notNull(),
  description: text().notNull().default(''),
  verifications: integer().notNull(),
  priceCents: integer().notNull(),
  currency: text().notNull().default('EUR'),
  isCustom: boolean().notNull().default(false),
  sortOrder: integer().notNull().default(0),
  /** Services a paid plan switches on in the company config (null: the package names none). */
  services: jsonb().$type<string[]>(),
  /** Length of a paid period in days. */
  periodDays: integer().notNull().default(30),
});
