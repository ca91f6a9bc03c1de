/**
 * TURN credentials per call (coturn's `use-auth-secret` scheme), checked against a vector computed with
 * openssl and against a real coturn; the relay-only filter of signals; the path a call took, from its stats.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import {
  iceForCall,
  relayCandidate,
  relayOnlySdp,
  relayOnlySignal,
  turnCredentials,
} from '../../server/domain/callIce';
import { callPathOf, type PathStatsEntry } from '../../src/services/callPath';
import { iceFailureOf } from '../../src/services/iceFailure';
import { type Coturn, startCoturn } from '../support/coturn';
import { allocate } from '../support/turnClient';

const ICE = {
  urls: [
    'stun:stun.example.com:3478',
    'turn:turn.example.com:3478?transport=udp',
    'turns:turn.example.com:5349',
  ],
  secret: 'north-wind-secret',
  credentialTtlSeconds: 3600,
  transportPolicy: 'all' as const,
};

describe('TURN credentials', () => {
  it('are `<expiry>:<subject>` with the base64 HMAC-SHA1 of it (vector from `openssl dgst -sha1 -hmac`)', () => {
    // printf '%s' 1700000000:call42-agent | openssl dgst -sha1 -hmac north-wind-secret -binary | base64
    expect(turnCredentials('north-wind-secret', 'call42-agent', 3600, 1_699_996_400_000)).toEqual({
      username: '1700000000:call42-agent',
      credential: 'S9tPvcwL0+WoBfzoyXHjRM9ZZlg=',
      expiresAt: 1_700_000_000,
    });
  });

  it('name the call and the side, last the configured time, and leave STUN out of a relay-only call', () => {
    const now = 1_800_000_000_000;
    const agent = iceForCall(ICE, false, 42, 'agent', now);
    expect(agent).toEqual({
      iceTransportPolicy: 'all',
      iceServers: [
        { urls: ['stun:stun.example.com:3478'] },
        {
          urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349'],
          username: `${1_800_000_000 + 3600}:call42-agent`,
          credential: turnCredentials(ICE.secret, 'call42-agent', 3600, now).credential,
        },
      ],
    });
    const customer = iceForCall(ICE, true, 42, 'customer', now);
    expect(customer.iceTransportPolicy).toBe('relay');
    expect(customer.iceServers).toHaveLength(1);
    expect(customer.iceServers[0]?.username).toBe(`${1_800_000_000 + 3600}:call42-customer`);
    expect(iceForCall({ ...ICE, urls: [], secret: null }, false, 42, 'agent', now)).toEqual({
      iceServers: [],
      iceTransportPolicy: 'all',
    });
  });
});

describe('a real coturn with the same secret', () => {
  let coturn: Coturn;
  beforeAll(async () => {
    coturn = await startCoturn();
  }, 30_000);
  afterAll(async () => coturn?.stop());

  it('relays for minted credentials and refuses expired or wrongly signed ones (401)', async () => {
    const good = turnCredentials(coturn.secret, 'call7-customer', 3600);
    expect(await allocate(coturn.host, coturn.port, good.username, good.credential), coturn.log()).toEqual({
      ok: true,
    });
    const expired = turnCredentials(coturn.secret, 'call7-customer', 3600, Date.now() - 2 * 3600_000);
    expect(await allocate(coturn.host, coturn.port, expired.username, expired.credential)).toEqual({
      ok: false,
      code: 401,
    });
    const wrong = turnCredentials('another-secret', 'call7-customer', 3600);
    expect(await allocate(coturn.host, coturn.port, wrong.username, wrong.credential)).toEqual({
      ok: false,
      code: 401,
    });
  });
});

const HOST = 'candidate:1 1 udp 2122260223 192.168.1.20 54400 typ host generation 0 ufrag abcd network-id 1';
const SRFLX =
  'candidate:2 1 udp 1686052607 203.0.113.9 54400 typ srflx raddr 192.168.1.20 rport 54400 generation 0';
const RELAY =
  'candidate:3 1 udp 41885439 198.51.100.7 61000 typ relay raddr 203.0.113.9 rport 54400 generation 0';
const MDNS = 'candidate:4 1 udp 2122260223 3f1c-aa.local 54401 typ host generation 0';

describe('the relay-only filter', () => {
  it('keeps relay candidates only, with their related address blanked', () => {
    expect(relayCandidate(HOST)).toBeNull();
    expect(relayCandidate(SRFLX)).toBeNull();
    expect(relayCandidate(MDNS)).toBeNull();
    expect(relayCandidate('candidate:5 1 udp 1 203.0.113.9 1 typ prflx raddr 0.0.0.0 rport 0')).toBeNull();
    expect(relayCandidate(RELAY)).toBe(
      'candidate:3 1 udp 41885439 198.51.100.7 61000 typ relay raddr 0.0.0.0 rport 0 generation 0',
    );
  });

  it('drops candidate signals that are not relay ones, and unreadable ones; passes others untouched', () => {
    const trickled = (candidate: string) => ({
      type: 'candidate',
      candidate: { candidate, sdpMLineIndex: 0, sdpMid: '0' },
    });
    expect(relayOnlySignal(trickled(HOST))).toBeNull();
    expect(relayOnlySignal(trickled(SRFLX))).toBeNull();
    expect(relayOnlySignal({ type: 'candidate', candidate: 42 })).toBeNull();
    expect(relayOnlySignal(trickled(RELAY))).toEqual(trickled(relayCandidate(RELAY) as string));
    expect(relayOnlySignal(trickled(''))).toEqual(trickled(''));
    expect(relayOnlySignal({ type: 'renegotiate', renegotiate: true })).toEqual({
      type: 'renegotiate',
      renegotiate: true,
    });
  });

  it('takes every other address out of an SDP', () => {
    const sdp = [
      'v=0',
      'o=- 1 2 IN IP4 127.0.0.1',
      'm=video 54400 UDP/TLS/RTP/SAVPF 96',
      'c=IN IP4 203.0.113.9',
      'a=rtcp:9 IN IP4 192.168.1.20',
      `a=${HOST}`,
      `a=${SRFLX}`,
      `a=${RELAY}`,
      'a=mid:0',
      '',
    ].join('\r\n');
    const clean = relayOnlySdp(sdp);
    expect(clean).not.toMatch(/192\.168\.1\.20|203\.0\.113\.9/);
    expect(clean).toContain('198.51.100.7 61000 typ relay');
    expect(clean).toContain('c=IN IP4 0.0.0.0\r\n');
    expect(clean.endsWith('a=mid:0\r\n')).toBe(true);
    expect(relayOnlySignal({ type: 'offer', sdp })).toEqual({ type: 'offer', sdp: clean });
  });

  it('leaves no address but relay ones in any SDP of host, srflx, prflx and relay candidates', () => {
    const octet = fc.integer({ min: 1, max: 254 });
    const address = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));
    const candidate = fc
      .record({
        type: fc.constantFrom('host', 'srflx', 'prflx', 'relay'),
        address,
        related: address,
        port: fc.integer({ min: 1024, max: 65535 }),
      })
      .map((c) => ({
        ...c,
        line: `a=candidate:9 1 udp 100 ${c.address} ${c.port} typ ${c.type}${c.type === 'host' ? '' : ` raddr ${c.related} rport ${c.port}`} generation 0`,
      }));
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 8 }), address, (candidates, defaultAddress) => {
        const sdp = ['v=0', `c=IN IP4 ${defaultAddress}`, ...candidates.map((c) => c.line)].join('\r\n');
        const relayed = new Set(candidates.filter((c) => c.type === 'relay').map((c) => c.address));
        const left = relayOnlySdp(sdp).match(/\d+\.\d+\.\d+\.\d+/g) ?? [];
        for (const found of left) expect(found === '0.0.0.0' || relayed.has(found)).toBe(true);
        const lines = relayOnlySdp(sdp)
          .split('\r\n')
          .filter((l) => l.startsWith('a=candidate:'));
        expect(lines).toHaveLength(
          relayed.size === 0 ? 0 : candidates.filter((c) => c.type === 'relay').length,
        );
      }),
    );
  });
});

describe('the configuration', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/idv-ice-config-test' };
  it('reads TURN_URLS, TURN_SECRET, TURN_CREDENTIAL_TTL_SECONDS and ICE_TRANSPORT_POLICY', () => {
    expect(loadConfig(base).ice).toEqual({
      urls: [],
      secret: null,
      credentialTtlSeconds: 3600,
      transportPolicy: 'all',
    });
    expect(
      loadConfig({
        ...base,
        TURN_URLS: 'stun:stun.example.com:3478, turn:turn.example.com:3478?transport=tcp',
        TURN_SECRET: 's3cret',
        TURN_CREDENTIAL_TTL_SECONDS: '600',
        ICE_TRANSPORT_POLICY: 'relay',
      }).ice,
    ).toEqual({
      urls: ['stun:stun.example.com:3478', 'turn:turn.example.com:3478?transport=tcp'],
      secret: 's3cret',
      credentialTtlSeconds: 600,
      transportPolicy: 'relay',
    });
  });

  it('refuses a bad value with the variable named', () => {
    expect(() => loadConfig({ ...base, TURN_URLS: 'http://turn.example.com' })).toThrow(/TURN_URLS/);
    expect(() => loadConfig({ ...base, TURN_URLS: 'turn:turn.example.com:3478' })).toThrow(/TURN_SECRET/);
    expect(() => loadConfig({ ...base, ICE_TRANSPORT_POLICY: 'sometimes' })).toThrow(/ICE_TRANSPORT_POLICY/);
    expect(() => loadConfig({ ...base, ICE_TRANSPORT_POLICY: 'relay' })).toThrow(/ICE_TRANSPORT_POLICY/);
    expect(() => loadConfig({ ...base, TURN_CREDENTIAL_TTL_SECONDS: '0' })).toThrow(
      /TURN_CREDENTIAL_TTL_SECONDS/,
    );
  });
});

describe('what the agent is shown', () => {
  const pair = (local: Partial<PathStatsEntry>, remote: Partial<PathStatsEntry>): PathStatsEntry[] => [
    { id: 'T', type: 'transport', timestamp: 0, selectedCandidatePairId: 'P' },
    { id: 'P', type: 'candidate-pair', timestamp: 0, localCandidateId: 'L', remoteCandidateId: 'R' },
    { id: 'L', type: 'local-candidate', timestamp: 0, ...local },
    { id: 'R', type: 'remote-candidate', timestamp: 0, ...remote },
  ];
  it('names the path of the selected candidate pair', () => {
    expect(callPathOf(pair({ candidateType: 'host' }, { candidateType: 'host' }))).toBe('direct');
    expect(callPathOf(pair({ candidateType: 'srflx' }, { candidateType: 'host' }))).toBe('stun');
    expect(callPathOf(pair({ candidateType: 'host' }, { candidateType: 'prflx' }))).toBe('stun');
    expect(
      callPathOf(pair({ candidateType: 'relay', relayProtocol: 'udp' }, { candidateType: 'relay' })),
    ).toBe('turn-udp');
    expect(
      callPathOf(pair({ candidateType: 'relay', relayProtocol: 'tcp' }, { candidateType: 'host' })),
    ).toBe('turn-tcp');
    expect(
      callPathOf(pair({ candidateType: 'relay', relayProtocol: 'tls' }, { candidateType: 'srflx' })),
    ).toBe('turns');
    expect(callPathOf(pair({ candidateType: 'srflx' }, { candidateType: 'relay' }))).toBe('turn-udp');
    expect(callPathOf([])).toBeNull();
  });

  it('names what failed from the TURN error codes', () => {
    expect(iceFailureOf([701, 401])).toBe('credentials');
    expect(iceFailureOf([701])).toBe('unreachable');
    expect(iceFailureOf([])).toBe('noPath');
  });
});
