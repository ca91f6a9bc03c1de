/**
 * The hard-coded sample business entities of the KYB area (sample data only, no calls). Names,
 * registers and findings are invented for the demo; any likeness to a real company or person is chance.
 * The document images are small SVG files in public/entity-samples/, drawn by scripts/entitySamples.ts.
 */
import type {
  BusinessEntity,
  EntityCheck,
  EntityDocument,
  EntityIndividual,
  QuestionAnswer,
  QuestionId,
} from '#contract/entities';

/** The questionnaire of every entity (sort orders 1 to 10). */
export const ENTITY_QUESTIONS: readonly {
  id: QuestionId;
  sort_order: number;
  answer_type: 'single_choice' | 'multiple_choice';
  optional: boolean;
}[] = [
  { id: 'activity', sort_order: 1, answer_type: 'single_choice', optional: false },
  { id: 'countries', sort_order: 2, answer_type: 'multiple_choice', optional: false },
  { id: 'monthlyVolume', sort_order: 3, answer_type: 'single_choice', optional: false },
  { id: 'sourceOfFunds', sort_order: 4, answer_type: 'single_choice', optional: false },
  { id: 'cashIntensive', sort_order: 5, answer_type: 'single_choice', optional: false },
  { id: 'sanctionedCountries', sort_order: 6, answer_type: 'single_choice', optional: false },
  { id: 'pep', sort_order: 7, answer_type: 'single_choice', optional: false },
  { id: 'bearerShares', sort_order: 8, answer_type: 'single_choice', optional: false },
  { id: 'employees', sort_order: 9, answer_type: 'single_choice', optional: false },
  { id: 'regulated', sort_order: 10, answer_type: 'single_choice', optional: true },
];

/** Choice answers' keys (translated in the entities namespace). */
export const CHOICE_OPTIONS = {
  activity: [
    'manufacturing',
    'trade',
    'software',
    'financialServices',
    'construction',
    'logistics',
    'hospitality',
    'consulting',
    'nonProfit',
  ],
  monthlyVolume: ['under50k', 'from50kTo250k', 'from250kTo1m', 'over1m'],
  sourceOfFunds: ['revenue', 'shareholderLoans', 'investment', 'donations', 'bankCredit'],
  employees: ['from1To10', 'from11To50', 'from51To250', 'over250'],
} as const;

const documents = (
  id: number,
  dates: { incorporation: string; articles: string; shareholders: string; address: string },
): EntityDocument[] =>
  (['incorporation', 'articles', 'shareholders', 'address'] as const).map((kind) => ({
    id: `${id}-${kind}`,
    kind,
    issued: dates[kind],
    file: `/entity-samples/${id}-${kind}.svg`,
  }));

const person = (
  id: string,
  name: string,
  nationality: string,
  birth_date: string,
  roles: EntityIndividual['roles'] = [],
  pep = false,
): EntityIndividual => ({ id, name, roles, nationality, birth_date, pep });

const choice = (value: string): QuestionAnswer => ({ type: 'choice', value });
const yes: QuestionAnswer = { type: 'yesNo', value: true };
const no: QuestionAnswer = { type: 'yesNo', value: false };
const countries = (...value: string[]): QuestionAnswer => ({ type: 'countries', value });
const skipped: QuestionAnswer = { type: 'skipped' };

const SANCTIONS = 'OFAC SDN, EU consolidated list, UN Security Council list';
const MEDIA = 'News and court-record search';

/** The registry check, the entity sanctions check, one per individual and adverse media. */
function checks(
  date: string | null,
  registry: string,
  individuals: EntityIndividual[],
  overrides: {
    registry?: Partial<EntityCheck>;
    sanctionsEntity?: Partial<EntityCheck>;
    adverseMedia?: Partial<EntityCheck>;
    individuals?: Record<string, Partial<EntityCheck>>;
  } = {},
): EntityCheck[] {
  const result = date ? 'passed' : 'pending';
  return [
    { kind: 'registry', result, checked_at: date, source: registry, ...overrides.registry },
    { kind: 'sanctionsEntity', result, checked_at: date, source: SANCTIONS, ...overrides.sanctionsEntity },
    ...individuals.map(
      (individual): EntityCheck => ({
        kind: 'sanctionsIndividual',
        subject: individual.id,
        result,
        checked_at: date,
        source: SANCTIONS,
        ...overrides.individuals?.[individual.id],
      }),
    ),
    { kind: 'adverseMedia', result, checked_at: date, source: MEDIA, ...overrides.adverseMedia },
  ];
}

const TR_REGISTRY = 'Türkiye Ticaret Sicili Gazetesi (MERSİS)';

const anadolu = [
  person('p1', 'Mehmet Yılmaz', 'TR', '1961-04-12', ['chair']),
  person('p2', 'Ayşe Yılmaz', 'TR', '1965-09-30'),
  person('p3', 'Zeynep Kaya', 'TR', '1979-01-22', ['director', 'signatory']),
];
const bogazici = [
  person('p1', 'Can Demir', 'TR', '1974-06-02', ['director']),
  person('p2', 'Elif Demir', 'TR', '1977-11-15'),
  person('p3', 'Okan Arslan', 'TR', '1982-03-08', ['director', 'signatory']),
];
const ege = [
  person('p1', 'Hüseyin Çelik', 'TR', '1958-02-19', ['chair']),
  person('p2', 'Gülay Şahin', 'TR', '1969-07-07', ['boardMember']),
  person('p3', 'Murat Aydın', 'TR', '1971-12-01', ['boardMember', 'signatory']),
];
const nordwind = [
  person('p1', 'Klaus Becker', 'DE', '1966-08-23', ['director']),
  person('p2', 'Sabine Hoffmann', 'DE', '1972-05-14'),
  person('p3', 'Jonas Weber', 'DE', '1985-10-03', ['signatory']),
];
const lumiere = [
  person('p1', 'Claire Dubois', 'FR', '1980-02-11', ['chair']),
  person('p2', 'Antoine Martin', 'FR', '1978-12-24', ['director']),
];
const vanDijk = [person('p1', 'Pieter van Dijk', 'NL', '1983-07-19', ['director', 'signatory'])];
const baltic = [
  person('p1', 'Andris Ozols', 'LV', '1975-03-29', ['director']),
  person('p2', 'Dmitri Volkov', 'CY', '1969-10-10'),
  person('p3', 'Kadri Tamm', 'EE', '1988-06-16', ['secretary']),
];
const costa = [
  person('p1', 'Javier Morales Ruiz', 'ES', '1970-01-05', ['director']),
  person('p2', 'Lucía Ortega Sanz', 'ES', '1973-08-21', ['director']),
];
const milano = [
  person('p1', 'Giulia Rossi', 'IT', '1986-04-02', ['director', 'signatory']),
  person('p2', 'Marco Bianchi', 'IT', '1984-09-17', ['director']),
];
const wisla = [
  person('p1', 'Tomasz Nowak', 'PL', '1968-11-28', ['chair']),
  person('p2', 'Katarzyna Wójcik', 'PL', '1976-03-13', ['director']),
  person('p3', 'Piotr Zieliński', 'PL', '1981-05-05', ['signatory']),
];
const shannon = [
  person('p1', 'Orla Byrne', 'IE', '1987-02-26', ['director']),
  person('p2', 'Seán Kelly', 'IE', '1979-09-09', ['director', 'signatory'], true),
  person('p3', 'Faisal Al-Rashid', 'AE', '1964-12-12'),
];
const kapadokya = [
  person('p1', 'Hasan Öztürk', 'TR', '1960-10-20', ['chair']),
  person('p2', 'Fatma Öztürk', 'TR', '1963-01-31', ['director']),
  person('p3', 'Emre Koç', 'TR', '1990-07-04', ['signatory']),
];
const yesil = [
  person('p1', 'Selin Aksoy', 'TR', '1975-05-25', ['chair']),
  person('p2', 'Burak Yıldız', 'TR', '1980-08-08', ['boardMember']),
  person('p3', 'Deniz Erdem', 'TR', '1984-04-18', ['boardMember', 'signatory']),
];

export const SAMPLE_ENTITIES: readonly BusinessEntity[] = [
  {
    id: 1,
    name: 'Anadolu Tekstil Sanayi ve Ticaret A.Ş.',
    legal_form: 'jointStock',
    local_form: 'A.Ş.',
    registration_number: '0068-1234-5670-0015',
    country: 'TR',
    risk: 'Low',
    status: 'Clear',
    aml_status: 'clear',
    created_at: '2026-03-02T09:14:00Z',
    registry: {
      name: TR_REGISTRY,
      incorporated: '1994-05-16',
      address: 'Organize Sanayi Bölgesi 4. Cadde No: 12, 16140 Nilüfer / Bursa',
      tax_number: '0680123456',
      industry: '13.20 Weaving of textiles',
      capital: { amount: 25_000_000, currency: 'TRY' },
      website: 'anadolutekstil.example',
    },
    documents: documents(1, {
      incorporation: '1994-05-16',
      articles: '2023-06-01',
      shareholders: '2026-01-10',
      address: '2026-02-12',
    }),
    individuals: anadolu,
    companies: [],
    ownership: [
      { owner: 'p1', owned: 'entity', share: 55 },
      { owner: 'p2', owned: 'entity', share: 30 },
    ],
    checks: checks('2026-03-04', TR_REGISTRY, anadolu),
    questionnaire: {
      activity: choice('manufacturing'),
      countries: countries('TR', 'DE', 'NL', 'GB'),
      monthlyVolume: choice('over1m'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('over250'),
      regulated: no,
    },
  },
  {
    id: 2,
    name: 'Boğaziçi Lojistik Limited Şirketi',
    legal_form: 'limited',
    local_form: 'Ltd. Şti.',
    registration_number: '0178-5522-9040-0011',
    country: 'TR',
    risk: 'Mid',
    status: 'Created',
    aml_status: 'notScreened',
    created_at: '2026-11-18T14:40:00Z',
    registry: {
      name: TR_REGISTRY,
      incorporated: '2015-09-03',
      address: 'Büyükdere Caddesi No: 185 Kat: 7, 34394 Şişli / İstanbul',
      tax_number: '1780552290',
      industry: '52.29 Other transportation support activities',
      capital: { amount: 2_500_000, currency: 'TRY' },
      website: 'bogazicilojistik.example',
    },
    documents: documents(2, {
      incorporation: '2015-09-03',
      articles: '2021-02-17',
      shareholders: '2026-10-30',
      address: '2026-10-05',
    }),
    individuals: bogazici,
    companies: [
      {
        id: 'c1',
        name: 'Marmara Holding A.Ş.',
        country: 'TR',
        registration_number: '0610-7788-1200-0019',
      },
    ],
    ownership: [
      { owner: 'c1', owned: 'entity', share: 70 },
      { owner: 'p3', owned: 'entity', share: 30 },
      { owner: 'p1', owned: 'c1', share: 60 },
      { owner: 'p2', owned: 'c1', share: 40 },
    ],
    checks: checks(null, TR_REGISTRY, bogazici),
    questionnaire: {
      activity: choice('logistics'),
      countries: countries('TR', 'BG', 'RO', 'GE', 'AZ'),
      monthlyVolume: choice('from250kTo1m'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from51To250'),
      regulated: skipped,
    },
  },
  {
    id: 3,
    name: 'Ege Tarımsal Kalkınma Kooperatifi',
    legal_form: 'cooperative',
    local_form: 'Koop.',
    registration_number: '0352-1010-4411-0003',
    country: 'TR',
    risk: 'Low',
    status: 'Created',
    aml_status: 'clear',
    created_at: '2026-10-21T08:05:00Z',
    registry: {
      name: TR_REGISTRY,
      incorporated: '2001-04-09',
      address: 'Atatürk Caddesi No: 44, 45400 Turgutlu / Manisa',
      tax_number: '3520101044',
      industry: '01.24 Growing of pome fruits and stone fruits',
      capital: { amount: 900_000, currency: 'TRY' },
      website: null,
    },
    documents: documents(3, {
      incorporation: '2001-04-09',
      articles: '2019-03-28',
      shareholders: '2026-09-15',
      address: '2026-04-02',
    }),
    individuals: ege,
    companies: [],
    // 212 members, none holding more than 5 %: the board members hold 4, 3 and 3 %.
    ownership: [
      { owner: 'p1', owned: 'entity', share: 4 },
      { owner: 'p2', owned: 'entity', share: 3 },
      { owner: 'p3', owned: 'entity', share: 3 },
    ],
    checks: checks('2026-10-22', TR_REGISTRY, ege),
    questionnaire: {
      activity: choice('trade'),
      countries: countries('TR', 'DE', 'RU'),
      monthlyVolume: choice('from50kTo250k'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: yes,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from11To50'),
      regulated: no,
    },
  },
  {
    id: 4,
    name: 'Nordwind Logistik GmbH',
    legal_form: 'limited',
    local_form: 'GmbH',
    registration_number: 'HRB 148213',
    country: 'DE',
    risk: 'Low',
    status: 'Clear',
    aml_status: 'clear',
    created_at: '2026-05-12T11:30:00Z',
    registry: {
      name: 'Handelsregister, Amtsgericht Hamburg',
      incorporated: '2008-01-21',
      address: 'Am Sandtorkai 50, 20457 Hamburg',
      tax_number: 'DE287654321',
      industry: '49.41 Freight transport by road',
      capital: { amount: 250_000, currency: 'EUR' },
      website: 'nordwind-logistik.example',
    },
    documents: documents(4, {
      incorporation: '2008-01-21',
      articles: '2020-11-04',
      shareholders: '2026-04-28',
      address: '2026-04-15',
    }),
    individuals: nordwind,
    companies: [
      {
        id: 'c1',
        name: 'Nordwind Beteiligungs AG',
        country: 'DE',
        registration_number: 'HRB 99120',
      },
    ],
    ownership: [
      { owner: 'c1', owned: 'entity', share: 100 },
      { owner: 'p1', owned: 'c1', share: 40 },
      { owner: 'p2', owned: 'c1', share: 35 },
    ],
    checks: checks('2026-05-14', 'Handelsregister, Amtsgericht Hamburg', nordwind),
    questionnaire: {
      activity: choice('logistics'),
      countries: countries('DE', 'DK', 'PL', 'NL'),
      monthlyVolume: choice('over1m'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from51To250'),
      regulated: no,
    },
  },
  {
    id: 5,
    name: 'Lumière Conseil S.A.S.',
    legal_form: 'jointStock',
    local_form: 'S.A.S.',
    registration_number: 'RCS Lyon 812 345 678',
    country: 'FR',
    risk: 'Normal',
    status: 'Clear',
    aml_status: 'clear',
    created_at: '2026-06-03T15:20:00Z',
    registry: {
      name: 'Registre du commerce et des sociétés, Lyon',
      incorporated: '2015-06-30',
      address: '18 rue de la République, 69002 Lyon',
      tax_number: 'FR41812345678',
      industry: '70.22 Business and other management consultancy activities',
      capital: { amount: 50_000, currency: 'EUR' },
      website: 'lumiere-conseil.example',
    },
    documents: documents(5, {
      incorporation: '2015-06-30',
      articles: '2022-09-12',
      shareholders: '2026-05-20',
      address: '2026-05-02',
    }),
    individuals: lumiere,
    companies: [],
    ownership: [
      { owner: 'p1', owned: 'entity', share: 51 },
      { owner: 'p2', owned: 'entity', share: 49 },
    ],
    checks: checks('2026-06-04', 'Registre du commerce et des sociétés, Lyon', lumiere),
    questionnaire: {
      activity: choice('consulting'),
      countries: countries('FR', 'BE', 'CH'),
      monthlyVolume: choice('from50kTo250k'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from11To50'),
      regulated: no,
    },
  },
  {
    id: 6,
    name: 'Van Dijk Software B.V.',
    legal_form: 'limited',
    local_form: 'B.V.',
    registration_number: 'KvK 70123456',
    country: 'NL',
    risk: 'Normal',
    status: 'Clear',
    aml_status: 'clear',
    created_at: '2026-07-19T10:00:00Z',
    registry: {
      name: 'Kamer van Koophandel, Handelsregister',
      incorporated: '2017-11-01',
      address: 'Stationsplein 45, 3511 ED Utrecht',
      tax_number: 'NL858123456B01',
      industry: '62.01 Computer programming activities',
      capital: { amount: 18_000, currency: 'EUR' },
      website: 'vandijksoftware.example',
    },
    documents: documents(6, {
      incorporation: '2017-11-01',
      articles: '2017-11-01',
      shareholders: '2026-07-01',
      address: '2026-06-25',
    }),
    individuals: vanDijk,
    companies: [
      {
        id: 'c1',
        name: 'Van Dijk Beheer B.V.',
        country: 'NL',
        registration_number: 'KvK 70098765',
      },
    ],
    ownership: [
      { owner: 'c1', owned: 'entity', share: 100 },
      { owner: 'p1', owned: 'c1', share: 100 },
    ],
    checks: checks('2026-07-20', 'Kamer van Koophandel, Handelsregister', vanDijk),
    questionnaire: {
      activity: choice('software'),
      countries: countries('NL', 'DE', 'US'),
      monthlyVolume: choice('from50kTo250k'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from1To10'),
      regulated: no,
    },
  },
  {
    id: 7,
    name: 'Baltic Amber Trading OÜ',
    legal_form: 'limited',
    local_form: 'OÜ',
    registration_number: '16234567',
    country: 'EE',
    risk: 'High',
    status: 'Risk',
    aml_status: 'potentialMatch',
    created_at: '2026-08-27T07:45:00Z',
    registry: {
      name: 'Äriregister (e-Business Register)',
      incorporated: '2021-05-18',
      address: 'Narva mnt 5, 10117 Tallinn',
      tax_number: 'EE102345678',
      industry: '46.48 Wholesale of watches and jewellery',
      capital: { amount: 2_500, currency: 'EUR' },
      website: null,
    },
    documents: documents(7, {
      incorporation: '2021-05-18',
      articles: '2021-05-18',
      shareholders: '2026-08-01',
      address: '2026-03-30',
    }),
    individuals: baltic,
    companies: [
      {
        id: 'c1',
        name: 'Amberline Holdings Ltd',
        country: 'CY',
        registration_number: 'HE 401234',
      },
    ],
    ownership: [
      { owner: 'c1', owned: 'entity', share: 90 },
      { owner: 'p1', owned: 'entity', share: 10 },
      { owner: 'p1', owned: 'c1', share: 50 },
      { owner: 'p2', owned: 'c1', share: 50 },
    ],
    checks: checks('2026-08-29', 'Äriregister (e-Business Register)', baltic, {
      individuals: {
        p2: {
          result: 'review',
          finding: 'Name similar to a listed person (score 88); birth year differs.',
        },
      },
      adverseMedia: {
        result: 'review',
        finding: '2 articles (2025) on amber exports routed through third countries.',
      },
    }),
    questionnaire: {
      activity: choice('trade'),
      countries: countries('EE', 'LV', 'LT', 'AE', 'CN'),
      monthlyVolume: choice('from250kTo1m'),
      sourceOfFunds: choice('shareholderLoans'),
      cashIntensive: yes,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from1To10'),
      regulated: no,
    },
  },
  {
    id: 8,
    name: 'Costa Azul Inversiones S.L.',
    legal_form: 'limited',
    local_form: 'S.L.',
    registration_number: 'B-93123456',
    country: 'ES',
    risk: 'High',
    status: 'Risk',
    aml_status: 'clear',
    created_at: '2026-09-09T12:10:00Z',
    registry: {
      name: 'Registro Mercantil de Málaga',
      incorporated: '2012-03-14',
      address: 'Paseo Marítimo Pablo Ruiz Picasso 12, 29016 Málaga',
      tax_number: 'ESB93123456',
      industry: '68.10 Buying and selling of own real estate',
      capital: { amount: 3_000, currency: 'EUR' },
      website: 'costa-azul.example',
    },
    documents: documents(8, {
      incorporation: '2012-03-14',
      articles: '2018-07-02',
      shareholders: '2026-08-20',
      address: '2026-08-25',
    }),
    individuals: costa,
    companies: [
      {
        id: 'c1',
        name: 'Inversiones Ibéricas del Sur S.A.',
        country: 'ES',
        registration_number: 'A-29876543',
      },
    ],
    ownership: [
      { owner: 'p1', owned: 'entity', share: 24 },
      { owner: 'p2', owned: 'entity', share: 24 },
      { owner: 'c1', owned: 'entity', share: 52 },
      { owner: 'p1', owned: 'c1', share: 50 },
      { owner: 'p2', owned: 'c1', share: 50 },
    ],
    checks: checks('2026-09-11', 'Registro Mercantil de Málaga', costa, {
      adverseMedia: {
        result: 'failed',
        finding: 'Regional press (2026): tax inspection of coastal property sales, director named.',
      },
    }),
    questionnaire: {
      activity: choice('trade'),
      countries: countries('ES', 'GI', 'GB'),
      monthlyVolume: choice('over1m'),
      sourceOfFunds: choice('investment'),
      cashIntensive: yes,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from1To10'),
      regulated: no,
    },
  },
  {
    id: 9,
    name: 'Rossi & Bianchi Design S.n.c.',
    legal_form: 'partnership',
    local_form: 'S.n.c.',
    registration_number: 'MI-2098765',
    country: 'IT',
    risk: 'Low',
    status: 'Clear',
    aml_status: 'clear',
    created_at: '2026-04-08T09:00:00Z',
    registry: {
      name: 'Registro delle Imprese, Milano',
      incorporated: '2019-02-01',
      address: 'Via Tortona 27, 20144 Milano',
      tax_number: 'IT10987654321',
      industry: '74.10 Specialised design activities',
      capital: { amount: 20_000, currency: 'EUR' },
      website: 'rossibianchi.example',
    },
    documents: documents(9, {
      incorporation: '2019-02-01',
      articles: '2019-02-01',
      shareholders: '2026-03-15',
      address: '2026-03-20',
    }),
    individuals: milano,
    companies: [],
    ownership: [
      { owner: 'p1', owned: 'entity', share: 60 },
      { owner: 'p2', owned: 'entity', share: 40 },
    ],
    checks: checks('2026-04-09', 'Registro delle Imprese, Milano', milano),
    questionnaire: {
      activity: choice('consulting'),
      countries: countries('IT', 'FR'),
      monthlyVolume: choice('under50k'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from1To10'),
      regulated: skipped,
    },
  },
  {
    id: 10,
    name: 'Wisła Budownictwo sp. z o.o.',
    legal_form: 'limited',
    local_form: 'sp. z o.o.',
    registration_number: 'KRS 0000712345',
    country: 'PL',
    risk: 'Mid',
    status: 'Created',
    aml_status: 'clear',
    created_at: '2026-11-02T13:25:00Z',
    registry: {
      name: 'Krajowy Rejestr Sądowy',
      incorporated: '2018-01-11',
      address: 'ul. Grzybowska 62, 00-844 Warszawa',
      tax_number: 'PL5271234567',
      industry: '41.20 Construction of residential and non-residential buildings',
      capital: { amount: 500_000, currency: 'PLN' },
      website: 'wisla-budownictwo.example',
    },
    documents: documents(10, {
      incorporation: '2018-01-11',
      articles: '2024-05-06',
      shareholders: '2026-10-12',
      address: '2026-07-01',
    }),
    individuals: wisla,
    companies: [],
    // 25 % is held by an employee share scheme with no single beneficiary.
    ownership: [
      { owner: 'p1', owned: 'entity', share: 45 },
      { owner: 'p2', owned: 'entity', share: 30 },
    ],
    checks: checks('2026-11-03', 'Krajowy Rejestr Sądowy', wisla, {
      registry: {
        result: 'review',
        finding: 'Registered address differs from the address on the proof of address.',
      },
    }),
    questionnaire: {
      activity: choice('construction'),
      countries: countries('PL', 'DE', 'UA'),
      monthlyVolume: choice('from250kTo1m'),
      sourceOfFunds: choice('bankCredit'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from51To250'),
      regulated: no,
    },
  },
  {
    id: 11,
    name: 'Shannon Fintech Ltd',
    legal_form: 'limited',
    local_form: 'Ltd',
    registration_number: 'CRO 654321',
    country: 'IE',
    risk: 'Very High',
    status: 'Risk',
    aml_status: 'match',
    created_at: '2026-10-01T16:50:00Z',
    registry: {
      name: 'Companies Registration Office (CRO)',
      incorporated: '2020-08-24',
      address: '2 Grand Canal Square, Dublin 2, D02 A342',
      tax_number: 'IE3654321KH',
      industry: '64.19 Other monetary intermediation',
      capital: { amount: 1_000_000, currency: 'EUR' },
      website: 'shannonfintech.example',
    },
    documents: documents(11, {
      incorporation: '2020-08-24',
      articles: '2023-01-19',
      shareholders: '2026-09-01',
      address: '2026-09-20',
    }),
    individuals: shannon,
    companies: [
      {
        id: 'c1',
        name: 'Gulf Crest Investments FZE',
        country: 'AE',
        registration_number: 'RAKEZ 1234567',
      },
    ],
    ownership: [
      { owner: 'p1', owned: 'entity', share: 20 },
      { owner: 'p2', owned: 'entity', share: 20 },
      { owner: 'c1', owned: 'entity', share: 60 },
      { owner: 'p3', owned: 'c1', share: 100 },
    ],
    checks: checks('2026-10-03', 'Companies Registration Office (CRO)', shannon, {
      sanctionsEntity: {
        result: 'review',
        finding: 'Majority shareholder Gulf Crest Investments FZE is owned by a listed person.',
      },
      individuals: {
        p3: {
          result: 'failed',
          finding: 'Listed person: name, birth date and nationality match (score 97).',
        },
        p2: { result: 'review', finding: 'Politically exposed person: former county councillor.' },
      },
    }),
    questionnaire: {
      activity: choice('financialServices'),
      countries: countries('IE', 'GB', 'AE', 'TR'),
      monthlyVolume: choice('over1m'),
      sourceOfFunds: choice('investment'),
      cashIntensive: no,
      sanctionedCountries: yes,
      pep: yes,
      bearerShares: no,
      employees: choice('from11To50'),
      regulated: yes,
    },
  },
  {
    id: 12,
    name: 'Kapadokya Turizm Otelcilik A.Ş.',
    legal_form: 'jointStock',
    local_form: 'A.Ş.',
    registration_number: '0541-2233-8800-0017',
    country: 'TR',
    risk: 'Normal',
    status: 'Clear',
    aml_status: 'clear',
    created_at: '2026-07-07T08:35:00Z',
    registry: {
      name: TR_REGISTRY,
      incorporated: '2006-04-27',
      address: 'Müze Yolu No: 9, 50180 Göreme / Nevşehir',
      tax_number: '5410223388',
      industry: '55.10 Hotels and similar accommodation',
      capital: { amount: 12_000_000, currency: 'TRY' },
      website: 'kapadokyaturizm.example',
    },
    documents: documents(12, {
      incorporation: '2006-04-27',
      articles: '2022-04-14',
      shareholders: '2026-06-30',
      address: '2026-06-18',
    }),
    individuals: kapadokya,
    companies: [
      {
        id: 'c1',
        name: 'Öztürk Holding A.Ş.',
        country: 'TR',
        registration_number: '0611-4455-9900-0012',
      },
    ],
    ownership: [
      { owner: 'c1', owned: 'entity', share: 80 },
      { owner: 'p1', owned: 'entity', share: 20 },
      { owner: 'p1', owned: 'c1', share: 50 },
      { owner: 'p2', owned: 'c1', share: 50 },
    ],
    checks: checks('2026-07-08', TR_REGISTRY, kapadokya),
    questionnaire: {
      activity: choice('hospitality'),
      countries: countries('TR'),
      monthlyVolume: choice('from250kTo1m'),
      sourceOfFunds: choice('revenue'),
      cashIntensive: yes,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from51To250'),
      regulated: no,
    },
  },
  {
    id: 13,
    name: 'Yeşil Gelecek Eğitim Vakfı',
    legal_form: 'foundation',
    local_form: 'Vakıf',
    registration_number: 'VGM 4512',
    country: 'TR',
    risk: 'Low',
    status: 'Created',
    aml_status: 'clear',
    created_at: '2026-11-20T10:15:00Z',
    registry: {
      name: 'Vakıflar Genel Müdürlüğü',
      incorporated: '2011-09-12',
      address: 'Kızılay Mahallesi Ziya Gökalp Caddesi No: 30, 06420 Çankaya / Ankara',
      tax_number: '9250451200',
      industry: '85.59 Other education',
      capital: { amount: 1_500_000, currency: 'TRY' },
      website: 'yesilgelecek.example',
    },
    documents: documents(13, {
      incorporation: '2011-09-12',
      articles: '2025-12-01',
      shareholders: '2026-11-01',
      address: '2026-11-05',
    }),
    individuals: yesil,
    companies: [],
    // A foundation has no owners: its board members are recorded as senior managing officials.
    ownership: [],
    checks: checks('2026-11-21', 'Vakıflar Genel Müdürlüğü', yesil),
    questionnaire: {
      activity: choice('nonProfit'),
      countries: countries('TR'),
      monthlyVolume: choice('under50k'),
      sourceOfFunds: choice('donations'),
      cashIntensive: no,
      sanctionedCountries: no,
      pep: no,
      bearerShares: no,
      employees: choice('from11To50'),
      regulated: no,
    },
  },
];

export function findEntity(id: number): BusinessEntity | undefined {
  return SAMPLE_ENTITIES.find((entity) => entity.id === id);
}
