/**
 * Draws the sample document images of the business entities (KYB sample data) as small SVG files in
 * public/entity-samples/: certificate of incorporation, articles, shareholder register and proof of address
 * for each entity of src/services/entities/sampleEntities.ts. Run after changing the sample data:
 *   npx tsx scripts/entitySamples.ts
 * A unit test checks that every document of the sample data has its file.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BusinessEntity, EntityDocument } from '#contract/entities';
import { ENTITY_PARTY } from '#contract/entities';
import { SAMPLE_ENTITIES } from '../src/services/entities/sampleEntities';

const OUT = 'public/entity-samples';

const TITLES: Record<EntityDocument['kind'], string> = {
  incorporation: 'Certificate of Incorporation',
  articles: 'Articles of Association',
  shareholders: 'Register of Shareholders',
  address: 'Proof of Registered Address',
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function lines(entity: BusinessEntity, document: EntityDocument): string[] {
  const name = (id: string) =>
    id === ENTITY_PARTY
      ? entity.name
      : (entity.individuals.find((p) => p.id === id)?.name ??
        entity.companies.find((c) => c.id === id)?.name ??
        id);
  switch (document.kind) {
    case 'incorporation':
      return [
        `This certifies that ${entity.name}`,
        `was incorporated on ${entity.registry.incorporated}`,
        `as a ${entity.local_form} under number ${entity.registration_number}.`,
        `Register: ${entity.registry.name}`,
      ];
    case 'articles':
      return [
        `Company: ${entity.name}`,
        `Legal form: ${entity.local_form}`,
        `Share capital: ${entity.registry.capital.amount.toLocaleString('en-US')} ${entity.registry.capital.currency}`,
        `Object: ${entity.registry.industry}`,
        `Directors: ${entity.individuals.filter((p) => p.roles.length > 0).length}`,
      ];
    case 'shareholders':
      return entity.ownership.length === 0
        ? ['No shareholders: the entity has no share capital owners.']
        : entity.ownership.map((link) => `${name(link.owner)} holds ${link.share} % of ${name(link.owned)}`);
    default:
      return [
        entity.name,
        ...entity.registry.address.split(', '),
        `Tax number: ${entity.registry.tax_number}`,
      ];
  }
}

function svg(entity: BusinessEntity, document: EntityDocument): string {
  const body = lines(entity, document)
    .slice(0, 8)
    // Long lines get a smaller font so they stay inside the 504-pixel text area (about 0.56 em a letter).
    .map((line, i) => {
      const size = Math.min(17, Math.floor(504 / (0.56 * line.length)));
      return `<text x="48" y="${250 + i * 34}" font-size="${size}">${escapeXml(line)}</text>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800" viewBox="0 0 600 800" font-family="DejaVu Sans, Arial, sans-serif">
<title>${TITLES[document.kind]}: ${escapeXml(entity.name)} (sample)</title>
<rect width="600" height="800" fill="#fbf8ef"/><rect x="20" y="20" width="560" height="760" fill="none" stroke="#8a6d3b" stroke-width="3"/>
<text x="300" y="100" font-size="28" text-anchor="middle" fill="#3d2f14">${TITLES[document.kind]}</text>
<text x="300" y="140" font-size="16" text-anchor="middle" fill="#5c4a26">${escapeXml(entity.registry.name)}</text>
<line x1="48" y1="190" x2="552" y2="190" stroke="#8a6d3b"/>${body}
<text x="48" y="700" font-size="15" fill="#5c4a26">Issued ${document.issued} · No. ${escapeXml(entity.registration_number)}</text>
<circle cx="480" cy="660" r="58" fill="none" stroke="#a33" stroke-width="4"/><text x="480" y="666" font-size="14" text-anchor="middle" fill="#a33">SAMPLE</text>
</svg>
`;
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const entity of SAMPLE_ENTITIES) {
  for (const document of entity.documents) {
    writeFileSync(join('public', document.file), svg(entity, document));
  }
}
console.log(`${readdirSync(OUT).length} files in ${OUT}`);
