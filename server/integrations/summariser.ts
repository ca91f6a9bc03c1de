import { CALL_STATUSES } from '#contract/common';

/** What a summariser may know about a profile: its own data, already limited to the caller's company. */
export interface ProfileFacts {
  profile: {
    id: number;
    name: string | null;
    idCardNumber: string;
    status: string;
    riskLevel: string;
    rejectReason: string | null;
    nationality: string | null;
    dateOfBirth: string | null;
    email: string | null;
    phone: string | null;
    source: string;
    createdAt: Date;
    lastStatusDate: Date | null;
  };
  documents: {
    id: number;
    documentClass: string;
    typeName: string | null;
    status: string;
    archived: boolean;
    expiryDate: string | null;
    /** `{ document, fraud, biometric, cross }`, each `{ result, score }` */
    checks: Record<string, unknown>;
    alerts: { name: string; result: string; overridden: boolean }[];
  }[];
  aml: {
    provider: string | null;
    score: number;
    lists: string[];
    matches: number;
    approved: boolean | null;
    lastScreening: { status: string; date: Date; database: string } | null;
  } | null;
  calls: { status: number; startedAt: Date | null }[];
  /** Newest first. */
  logs: { action: string; message: string; createdAt: Date }[];
  /** Newest first. */
  notes: { kind: string; note: string; createdAt: Date }[];
}

/**
 * Answers a question about a profile in plain sentences. The local implementation is rule-based; a
 * language-model endpoint can implement the same interface. Throwing means "could not summarise"
 * (the route answers 502).
 */
export interface Summariser {
  readonly name: string;
  summarise(facts: ProfileFacts, question: string): Promise<string>;
}

const DOCUMENT_LABELS: Record<string, string> = {
  ID: 'identity card',
  DL: 'driving licence',
  SE: 'selfie',
  PA: 'passport',
  VA: 'visa',
  UB: 'utility bill',
  IB: 'bank statement',
  SG: 'signature',
  CO: 'company document',
  OT: 'other document',
  XX: 'unknown document',
};

const STATUS_WORDS: Record<string, string> = {
  pending_review: 'pending review',
  approved: 'approved',
  rejected: 'rejected',
};

const SCREENING_WORDS: Record<string, string> = {
  clear: 'was clear',
  hit: 'found a hit',
  error: 'failed with an error',
};

/** Topics a question can ask about, with the words that point to them. */
const TOPICS = {
  status: [
    'status',
    'state',
    'approved',
    'approve',
    'rejected',
    'reject',
    'blacklisted',
    'blacklist',
    'pending',
    'decision',
    'inactive',
    'why',
  ],
  risk: ['risk', 'risky', 'danger', 'dangerous', 'score', 'safe', 'suspicious'],
  identity: [
    'who',
    'name',
    'identity',
    'born',
    'birth',
    'age',
    'nationality',
    'citizen',
    'contact',
    'email',
    'phone',
    'customer',
    'person',
  ],
  documents: [
    'document',
    'documents',
    'passport',
    'id',
    'card',
    'licence',
    'license',
    'selfie',
    'visa',
    'bill',
    'upload',
    'uploaded',
    'expired',
    'expiry',
    'missing',
  ],
  checks: [
    'check',
    'checks',
    'fraud',
    'biometric',
    'face',
    'alert',
    'alerts',
    'warning',
    'warnings',
    'failed',
    'fail',
    'tampering',
    'mrz',
    'forged',
    'fake',
  ],
  aml: [
    'aml',
    'sanction',
    'sanctions',
    'pep',
    'watchlist',
    'screening',
    'screened',
    'adverse',
    'media',
    'money',
    'laundering',
    'hit',
    'hits',
    'ofac',
    'list',
    'lists',
  ],
  calls: ['call', 'calls', 'video', 'kyc', 'interview', 'agent', 'recorded', 'recording'],
  activity: [
    'log',
    'logs',
    'history',
    'activity',
    'recent',
    'recently',
    'last',
    'latest',
    'changed',
    'happened',
    'timeline',
    'when',
  ],
  notes: ['note', 'notes', 'comment', 'comments', 'remark', 'said', 'feedback'],
} as const;
type Topic = keyof typeof TOPICS;

interface Fact {
  topic: Topic;
  text: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

function checkResult(value: unknown): string | null {
  if (value && typeof value === 'object' && 'result' in value) {
    const result = (value as { result: unknown }).result;
    return typeof result === 'string' ? result : null;
  }
  return null;
}

/** Every fact the rules can state about a profile, in reading order. */
export function factsOf(f: ProfileFacts): Fact[] {
  const facts: Fact[] = [];
  const p = f.profile;
  const who = p.name ?? `The customer with id card number ${p.idCardNumber}`;
  const since = p.lastStatusDate ? ` since ${day(p.lastStatusDate)}` : '';
  facts.push({ topic: 'status', text: `${who} is ${p.status}${since}.` });
  if (p.rejectReason && (p.status === 'Rejected' || p.status === 'Blacklisted')) {
    facts.push({ topic: 'status', text: `The reason given was: "${p.rejectReason}".` });
  }
  facts.push({
    topic: 'risk',
    text:
      p.riskLevel === 'Unknown' ? 'The risk level is not assessed yet.' : `The risk level is ${p.riskLevel}.`,
  });
  const identity = [
    p.nationality ? `nationality ${p.nationality}` : null,
    p.dateOfBirth ? `born ${p.dateOfBirth}` : null,
    p.email ? `e-mail ${p.email}` : null,
    p.phone ? `phone ${p.phone}` : null,
  ].filter((x): x is string => x !== null);
  facts.push({
    topic: 'identity',
    text:
      `The profile was created on ${day(p.createdAt)} through ${p.source}` +
      (identity.length > 0
        ? `; ${list(identity)}.`
        : '; no personal details beyond the id card number are on file.'),
  });

  const active = f.documents.filter((d) => !d.archived);
  if (active.length === 0) {
    facts.push({ topic: 'documents', text: 'No documents have been uploaded.' });
  } else {
    const described = active.map((d) => {
      const label = d.typeName ?? DOCUMENT_LABELS[d.documentClass] ?? d.documentClass;
      return `${label} (${STATUS_WORDS[d.status] ?? d.status})`;
    });
    facts.push({
      topic: 'documents',
      text: `It has ${plural(active.length, 'document')}: ${list(described)}.`,
    });
    const today = day(new Date());
    const expired = active.filter((d) => d.expiryDate !== null && d.expiryDate < today);
    if (expired.length > 0) {
      facts.push({
        topic: 'documents',
        text: `Expired: ${list(expired.map((d) => `${DOCUMENT_LABELS[d.documentClass] ?? d.documentClass} (${d.expiryDate})`))}.`,
      });
    }
    const failed: string[] = [];
    const warned: string[] = [];
    for (const d of active) {
      const label = DOCUMENT_LABELS[d.documentClass] ?? d.documentClass;
      for (const [check, value] of Object.entries(d.checks)) {
        const result = checkResult(value);
        if (result === 'failed') failed.push(`${check} check of the ${label}`);
        if (result === 'warning') warned.push(`${check} check of the ${label}`);
      }
    }
    if (failed.length === 0 && warned.length === 0) {
      facts.push({ topic: 'checks', text: 'All document checks passed.' });
    } else {
      if (failed.length > 0) facts.push({ topic: 'checks', text: `Failed: ${list(failed)}.` });
      if (warned.length > 0) facts.push({ topic: 'checks', text: `Warnings: ${list(warned)}.` });
    }
    const open = active.flatMap((d) => d.alerts.filter((a) => !a.overridden && a.result !== 'passed'));
    const overridden = active.flatMap((d) => d.alerts.filter((a) => a.overridden));
    if (open.length > 0) {
      facts.push({ topic: 'checks', text: `Open alerts: ${list([...new Set(open.map((a) => a.name))])}.` });
    }
    if (overridden.length > 0) {
      facts.push({
        topic: 'checks',
        text: `${plural(overridden.length, 'alert was', 'alerts were')} overridden by staff.`,
      });
    }
  }

  if (!f.aml) {
    facts.push({ topic: 'aml', text: 'No AML screening has been run.' });
  } else {
    const a = f.aml;
    const screened = a.lastScreening
      ? ` The last screening (${a.lastScreening.database}, ${day(a.lastScreening.date)}) ${SCREENING_WORDS[a.lastScreening.status] ?? `ended ${a.lastScreening.status}`}.`
      : '';
    if (a.lists.length > 0 || a.matches > 0) {
      const approval =
        a.approved === true
          ? 'approved by staff'
          : a.approved === false
            ? 'refused by staff'
            : 'not reviewed yet';
      facts.push({
        topic: 'aml',
        text:
          `AML screening found ${plural(a.matches, 'match', 'matches')}` +
          (a.lists.length > 0 ? ` on ${list(a.lists)}` : '') +
          ` (score ${a.score}), ${approval}.${screened}`,
      });
    } else {
      facts.push({ topic: 'aml', text: `AML screening is clear (score ${a.score}).${screened}` });
    }
  }

  if (f.calls.length === 0) {
    facts.push({ topic: 'calls', text: 'There have been no video calls.' });
  } else {
    const statuses = f.calls.map((c) => CALL_STATUSES[c.status] ?? String(c.status));
    facts.push({
      topic: 'calls',
      text: `There ${f.calls.length === 1 ? 'was' : 'were'} ${plural(f.calls.length, 'video call')}, the latest ${statuses[0]?.toLowerCase()}.`,
    });
  }

  if (f.logs.length > 0) {
    const recent = f.logs.slice(0, 3).map((l) => `${l.message.replace(/\.$/, '')} (${day(l.createdAt)})`);
    facts.push({ topic: 'activity', text: `Recent activity: ${list(recent)}.` });
  }
  if (f.notes.length === 0) {
    facts.push({ topic: 'notes', text: 'Staff have left no notes.' });
  } else {
    const latest = f.notes[0] as ProfileFacts['notes'][number];
    facts.push({
      topic: 'notes',
      text: `Staff left ${plural(f.notes.length, 'note')}; the latest (${day(latest.createdAt)}) says: "${latest.note}".`,
    });
  }
  return facts;
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Topics the question names, best match first. */
export function topicsOf(question: string): Topic[] {
  const words = new Set(wordsOf(question));
  const scored = (Object.keys(TOPICS) as Topic[])
    .map((topic) => ({ topic, score: TOPICS[topic].filter((w) => words.has(w)).length }))
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score);
  return scored.map((t) => t.topic);
}

export const LOCAL_SUMMARY_NOTE =
  'This is a local rule-based summary of the profile data; no AI model was used.';

/**
 * The local summariser: deterministic rules, no network. It states the facts whose topic the question
 * names (status, risk, identity, documents, checks, AML, calls, activity, notes), then a short overview
 * of the rest; a question that names no topic gets the overview only.
 */
export function createLocalSummariser(): Summariser {
  return {
    name: 'local-rules',
    async summarise(facts, question) {
      const all = factsOf(facts);
      const asked = topicsOf(question);
      const answer = asked.flatMap((topic) => all.filter((f) => f.topic === topic));
      const overviewTopics: Topic[] = ['status', 'risk', 'documents', 'checks', 'aml'];
      const overview = all.filter((f) => overviewTopics.includes(f.topic) && !answer.includes(f));
      const parts: string[] = [];
      if (answer.length > 0) parts.push(answer.map((f) => f.text).join(' '));
      else parts.push('The question does not name a topic these rules know, so here is an overview.');
      if (overview.length > 0)
        parts.push(`${answer.length > 0 ? 'Also: ' : ''}${overview.map((f) => f.text).join(' ')}`);
      parts.push(LOCAL_SUMMARY_NOTE);
      return parts.join('\n\n');
    },
  };
}

/**
 * A language-model summariser: any OpenAI-compatible chat-completions endpoint (`SUMMARISER_URL`, e.g. a
 * local llama.cpp, vLLM or Ollama server's `/v1`). It gets the same facts as the local rules, as text.
 */
export function createHttpSummariser(options: {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}): Summariser {
  const endpoint = `${options.url.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: `llm:${options.model}`,
    async summarise(facts, question) {
      const context = factsOf(facts)
        .map((fact) => `- ${fact.text}`)
        .join('\n');
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: options.model,
          temperature: 0,
          messages: [
            {
              role: 'system',
              content:
                'You help identity-verification staff review a customer profile. Answer only from the facts given, in plain sentences.',
            },
            { role: 'user', content: `Facts about the profile:\n${context}\n\nQuestion: ${question}` },
          ],
        }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      if (!response.ok) throw new Error(`summariser answered ${response.status}`);
      const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || !content.trim()) throw new Error('summariser gave no answer');
      return content.trim();
    },
  };
}
