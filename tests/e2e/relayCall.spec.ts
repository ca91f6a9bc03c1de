import { expect, type Page, test } from '@playwright/test';
import { type Coturn, startCoturn } from '../support/coturn';
import {
  answerAndTalk,
  Contexts,
  endWithStatus,
  goOnline,
  joinLink,
  joinQueue,
  playing,
} from './callSupport';
import { OwnServer } from './ownServer';
import { DEMO } from './support';

/**
 * Calls through a real TURN server (coturn, tests/support/coturn.ts), relay-only: a whole call whose every
 * candidate either side receives is a relay one, and a server whose TURN secret is wrong, whose agent is told
 * what failed and ends the call with a reason.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const PROFILE = 6;
let coturn: Coturn;

test.beforeAll(async () => {
  coturn = await startCoturn();
});
test.afterEach(async () => {
  // What the TURN server saw (its listeners, allocations, refusals) beside a failure.
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) console.log(`coturn's log:\n${coturn?.log() ?? ''}`);
});
test.afterAll(async () => {
  await coturn?.stop();
});

/** A server of this spec's own, relay-only through the coturn (the TURN settings are a start's environment). */
const relayServer = (secret: string) =>
  new OwnServer(11, { TURN_URLS: coturn.urls.join(','), TURN_SECRET: secret, ICE_TRANSPORT_POLICY: 'relay' });

/**
 * Every socket.io event a page receives, from its WebSocket frames (`42["event", payload]`): what reached the
 * browser, whatever the page did with it.
 */
function received(page: Page): { event: string; payload: Record<string, unknown> }[] {
  const events: { event: string; payload: Record<string, unknown> }[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString();
      const match = /^42(\d*)(\[.*)$/s.exec(text);
      if (!match?.[2]) return;
      const [event, body] = JSON.parse(match[2]) as [string, Record<string, unknown>];
      events.push({ event, payload: body });
    }),
  );
  return events;
}

/** The ICE candidates signalled to a page: trickled ones and those inside an offer or answer. */
function candidatesIn(events: { event: string; payload: Record<string, unknown> }[]): string[] {
  return events
    .filter((e) => e.event === 'signal.message')
    .flatMap(({ payload }) => {
      const data = payload.data as { candidate?: { candidate?: string }; sdp?: string };
      const trickled = data.candidate?.candidate ? [data.candidate.candidate] : [];
      const inSdp = (data.sdp ?? '').split(/\r?\n/).filter((line) => line.startsWith('a=candidate:'));
      return [...trickled, ...inSdp];
    });
}

test('a relay-only call through coturn: both videos play, every candidate either side sees is a relay one, the recording is uploaded', async ({
  browser,
}) => {
  const server = relayServer(coturn.secret);
  const own = new Contexts(server.url);
  try {
    await server.start();
    const agent = await own.page(browser);
    const toAgent = received(agent);
    await goOnline(agent, DEMO.agent);
    const link = await joinLink(agent, PROFILE);
    const customer = await own.page(browser);
    const toCustomer = received(customer);
    await joinQueue(customer, link);
    await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
    await answerAndTalk(agent, customer, PROFILE);

    // The quality panel names the path: relayed, over UDP.
    await expect(agent.getByTestId('call-path')).toHaveAttribute('data-path', 'turn-udp', {
      timeout: 20_000,
    });
    await expect(agent.getByTestId('call-path')).toContainText('Relayed (TURN over UDP)');

    // The customer's servers came to its socket alone, relay-only, with its own credentials.
    const ice = toCustomer.find((e) => e.event === 'call.ice')?.payload.ice as {
      iceTransportPolicy: string;
      iceServers: { username?: string }[];
    };
    expect(ice.iceTransportPolicy).toBe('relay');
    expect(ice.iceServers[0]?.username).toMatch(/^\d+:call\d+-customer$/);
    expect(JSON.stringify(toAgent)).not.toContain(ice.iceServers[0]?.username ?? '-');

    for (const seen of [candidatesIn(toAgent), candidatesIn(toCustomer)]) {
      expect(seen.length).toBeGreaterThan(0);
      for (const candidate of seen) expect(candidate).toMatch(/ typ relay /);
    }
    // Media flows the whole call: still playing on both sides.
    await playing(agent, "Customer's video");
    await playing(customer, "The agent's video");

    await endWithStatus(agent, 'Complete');
    await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 60_000 });
    // The recording of the relayed call is on the profile and plays.
    await agent.getByRole('link', { name: 'Watch the recording' }).click();
    const player = agent.getByLabel(/^Recording of call \d+$/);
    await expect
      .poll(() => player.evaluate((v: HTMLVideoElement) => Number.isFinite(v.duration) && v.duration > 0), {
        timeout: 20_000,
      })
      .toBe(true);
  } finally {
    await own.closeAll();
    await server.stop();
  }
});

test('with a TURN secret that does not match coturn, the agent is told the credentials were refused and ends the call with a reason', async ({
  browser,
}) => {
  const server = relayServer(`${coturn.secret}-wrong`);
  const own = new Contexts(server.url);
  try {
    await server.start();
    const agent = await goOnline(await own.page(browser), DEMO.agent);
    const link = await joinLink(agent, PROFILE);
    const customer = await own.page(browser);
    await joinQueue(customer, link);
    await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
    await agent.getByRole('button', { name: 'Answer', exact: true }).click();

    const failure = agent.getByRole('alert').filter({ hasText: 'Connection can not be established' });
    await expect(failure).toContainText("The relay server (TURN) refused this call's credentials", {
      timeout: 30_000,
    });
    await failure.getByRole('button', { name: 'End the call' }).click();
    await expect(agent.getByRole('heading', { name: 'How did the call end?' })).toBeVisible({
      timeout: 20_000,
    });
    await agent.getByRole('radio', { name: 'Connection error', exact: true }).check({ force: true });
    await agent.getByRole('button', { name: 'Save status' }).click();
    await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
    await agent.goto(`/profile/${PROFILE}?tab=videoCalls`);
    await expect(agent.getByRole('cell', { name: 'Connection error', exact: true }).first()).toBeVisible();
  } finally {
    await own.closeAll();
    await server.stop();
  }
});
