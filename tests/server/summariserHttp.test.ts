import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpSummariser, type ProfileFacts } from '../../server/integrations/summariser';

/** A stand-in for an OpenAI-compatible endpoint: echoes what it was asked, or fails on request. */
let server: Server;
let url: string;
const received: {
  path: string;
  auth: string | undefined;
  body: { model: string; messages: { content: string }[] };
}[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw);
      received.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      if (body.model === 'broken') {
        res.writeHead(500).end('{}');
        return;
      }
      const question = body.messages.at(-1).content as string;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { content: `Answer to: ${question.split('Question: ')[1]}` } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
// Each test reads the requests it made, never another test's.
beforeEach(() => {
  received.length = 0;
});

const facts: ProfileFacts = {
  profile: {
    id: 1,
    name: 'Ayşe Yılmaz',
    idCardNumber: '12345678901',
    status: 'Pending Review',
    riskLevel: 'High',
    rejectReason: null,
    nationality: 'TR',
    dateOfBirth: null,
    email: null,
    phone: null,
    source: 'studio',
    createdAt: new Date('2026-11-01T10:00:00Z'),
    lastStatusDate: null,
  },
  documents: [],
  aml: null,
  calls: [],
  logs: [],
  notes: [],
};

describe('language-model summariser (SUMMARISER_URL)', () => {
  it('asks an OpenAI-compatible endpoint with the profile facts and returns its answer', async () => {
    const summariser = createHttpSummariser({ url: `${url}/`, model: 'local-model', apiKey: 'k-1' });
    await expect(summariser.summarise(facts, 'What is the status?')).resolves.toBe(
      'Answer to: What is the status?',
    );
    const [request] = received;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.auth).toBe('Bearer k-1');
    expect(request?.body.model).toBe('local-model');
    expect(request?.body.messages.at(-1)?.content).toContain('Pending Review');
  });

  it('fails (the route answers 502) when the endpoint fails', async () => {
    const summariser = createHttpSummariser({ url, model: 'broken' });
    await expect(summariser.summarise(facts, 'What is the status?')).rejects.toThrow('500');
  });
});
