import { asc, eq } from 'drizzle-orm';
import type { Permission, Service } from '#contract/common';
import { SERVICES } from '#contract/common';
import type { Company, Group } from '#contract/companies';
import type { DbOrTx } from '../db/client';
import { companies, groups } from '../db/schema';
import { notFound } from '../errors';
import { iso } from './format';

type CompanyRow = typeof companies.$inferSelect;

export function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    region: row.region,
    config: {
      aml_provider: row.amlProvider,
      active_services: SERVICES.filter((s) => row.activeServices.includes(s)) as Service[],
    },
    industry: row.industry,
    package: row.packageId,
    payment_status: row.paymentStatus,
    created_at: iso(row.createdAt),
  };
}

export async function requireCompany(db: DbOrTx, companyId: number): Promise<CompanyRow> {
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return row;
}

export async function listGroups(db: DbOrTx, companyId: number): Promise<Group[]> {
  const rows = await db.select().from(groups).where(eq(groups.companyId, companyId)).orderBy(asc(groups.id));
  return rows.map((g) => ({ id: g.id, name: g.name, permissions: g.permissions as Permission[] }));
}
