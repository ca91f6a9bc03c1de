import type { DocumentClass } from '#contract/common';
import type { Db } from '../client';
import { countries, documentTypes, packages } from '../schema';

export const COUNTRIES: [code: string, name: string, nameTr: string][] = [
  ['TR', 'Türkiye', 'Türkiye'],
  ['DE', 'Germany', 'Almanya'],
  ['FR', 'France', 'Fransa'],
  ['GB', 'United Kingdom', 'Birleşik Krallık'],
  ['NL', 'Netherlands', 'Hollanda'],
  ['ES', 'Spain', 'İspanya'],
  ['IT', 'Italy', 'İtalya'],
  ['PL', 'Poland', 'Polonya'],
  ['AT', 'Austria', 'Avusturya'],
  ['BE', 'Belgium', 'Belçika'],
  ['SE', 'Sweden', 'İsveç'],
  ['GR', 'Greece', 'Yunanistan'],
  ['AZ', 'Azerbaijan', 'Azerbaycan'],
  ['US', 'United States', 'Amerika Birleşik Devletleri'],
  ['AE', 'United Arab Emirates', 'Birleşik Arap Emirlikleri'],
];

export const DOCUMENT_TYPES: [name: string, documentClass: DocumentClass, country: string | null][] = [
  ['National identity card', 'ID', 'TR'],
  ['Personalausweis', 'ID', 'DE'],
  ['Driving licence', 'DL', null],
  ['Selfie', 'SE', null],
  ['Passport', 'PA', null],
  ['Residence visa', 'VA', null],
  ['Utility bill', 'UB', null],
  ['Bank statement', 'IB', null],
  ['Signature', 'SG', null],
  ['Company registration', 'CO', null],
  ['Other document', 'OT', null],
  ['Unknown document', 'XX', null],
];

export async function seedReference(db: Db): Promise<{ documentTypeIds: Map<DocumentClass, number> }> {
  await db.insert(countries).values(COUNTRIES.map(([code, name, nameTr]) => ({ code, name, nameTr })));
  const types = await db
    .insert(documentTypes)
    .values(
      DOCUMENT_TYPES.map(([name, documentClass, country], i) => ({
        name,
        documentClass,
        country,
        sortOrder: i + 1,
      })),
    )
    .returning({ id: documentTypes.id, documentClass: documentTypes.documentClass });
  const documentTypeIds = new Map<DocumentClass, number>();
  for (const t of types)
    if (!documentTypeIds.has(t.documentClass as DocumentClass))
      documentTypeIds.set(t.documentClass as DocumentClass, t.id);
  await db.insert(packages).values([
    {
      name: 'Starter',
      description: '500 verifications a month',
      verifications: 500,
      priceCents: 25_000,
      sortOrder: 1,
      services: ['verification', 'video_kyc'],
    },
    {
      name: 'Growth',
      description: '2,000 verifications a month',
      verifications: 2000,
      priceCents: 80_000,
      sortOrder: 2,
      services: ['verification', 'aml', 'video_kyc', 'transactions', 'questionnaire'],
    },
    {
      name: 'Enterprise',
      description: 'From 1,000 verifications, custom price',
      verifications: 1000,
      priceCents: 0,
      isCustom: true,
      sortOrder: 3,
    },
  ]);
  return { documentTypeIds };
}
