/**
 * `npm run bench:calls` (second part; alone: `npm run bench:call-networks`): calls across three kinds of
 * network, side by side in one run, against a server of its own on one seeded data folder.
 *
 *   direct   no TURN server: both browsers on this machine connect peer to peer (host candidates);
 *   relay    relay-only (ICE_TRANSPORT_POLICY=relay) through a local coturn, both browsers on this machine;
 *   shaped   relay-only, the customer's Chromium in a network namespace whose one link carries 1 Mbit/s each
 *            way (tbf) and whose TURN datagrams cross a relay adding 150 ms each way and 3 % loss
 *            (tests/support/shapedLink.ts); needs root, left out with the reason otherwise.
 *
 * For each: Answer → both remote videos playing (the agent's click to the later of the two pages presenting a
 * frame with videoWidth > 0; Date.now() inside the pages, one machine, one clock), median and p95. Then, on the
 * shaped link, the namespace's link is cut for 5 s BENCH_NETWORK_CUTS times in one call: the time from the link
 * coming back to the agent's page decoding the customer's video again (10 more frames), and whether the call
 * kept its peer connection.
 *
 * Env: BENCH_NETWORK_RUNS (6), BENCH_NETWORK_WARMUP (1), BENCH_NETWORK_CUTS (3), CHROMIUM_PATH
 * (/usr/bin/chromium), STUDIO_DIST (a built studio to serve instead of a copy of dist/). `--no-build`.
 * Nothing is asserted.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { buildStudioIfStale } from '../scripts/studioBuild';
import { type Coturn, startCoturn } from '../tests/support/coturn';
import {
  netnsUnavailable,
  type ShapedNamespace,
  shapedNamespace,
  type UdpImpairment,
  udpImpairment,
} from '../tests/support/shapedLink';
import { api, loadAverage, login, profileIds, spread } from './calls';
import {
  benchServerEnv,
  finished,
  freePort,
  launchChromium,
  run,
  signInAs,
  stop,
  waitForServer,
} from './support';

const RUNS = Number(process.env.BENCH_NETWORK_RUNS ?? 6);
const WARMUP = Number(process.env.BENCH_NETWORK_WARMUP ?? 1);
const CUTS = Number(process.env.BENCH_NETWORK_CUTS ?? 3);
const CUT_MS = 5_000;
const LINK = { rateKbit: 1000, delayMs: 150, lossPct: 3 };
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const AGENT = { email: 'agent@acme.test', password: 'User@2026' };

type Mode = 'direct' | 'relay' | 'shaped';

/**
 * Both pages: `window.__bench` gets answerAt (the agent's click on Answer in the ring dialog) and videoAt (the
 * video labelled `label` presents a frame with videoWidth > 0 while playing); `window.__pcs` keeps the page's
 * RTCPeerConnections.
 */
const instrument = (label: string) => `(() => {
  const b = { answerAt: null, videoAt: null, seen: new WeakSet() };
  window.__bench = b;
  const Native = window.RTCPeerConnection;
  const all = [];
  window.__pcs = all;
  window.RTCPeerConnection = class extends Native { constructor(...a) { super(...a); all.push(this); } };
  const watch = (video) => {
    if (b.seen.has(video)) return;
    b.seen.add(video);
    const frame = () => {
      if (b.videoAt !== null) return;
      if (video.videoWidth > 0 && !video.paused) b.videoAt = Date.now();
      else video.requestVideoFrameCallback(frame);
    };
    video.requestVideoFrameCallback(frame);
  };
  new MutationObserver(() => {
    for (const video of document.querySelectorAll('video'))
      if (video.getAttribute('aria-label') === ${JSON.stringify(label)}) watch(video);
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.closest('[role="alertdialog"]') && button.textContent.trim() === 'Answer') b.answerAt = Date.now();
  }, true);
})();`;

interface Marks {
  answerAt: number | null;
  videoAt: number | null;
}
type BenchWindow = Window & { __bench: Marks & { seen: WeakSet<object> }; __pcs: RTCPeerConnection[] };

const marks = (page: Page) =>
  page.evaluate(() => {
    const b = (window as unknown as BenchWindow).__bench;
    return { answerAt: b.answerAt, videoAt: b.videoAt };
  });
const resetMarks = (page: Page) =>
  page.evaluate(() => {
    const b = (window as unknown as BenchWindow).__bench;
    b.answerAt = null;
    b.videoAt = null;
    b.seen = new WeakSet();
  });
const until = (page: Page, mark: keyof Marks, timeout = 60_000) =>
  page.waitForFunction((name) => (window as unknown as BenchWindow).__bench?.[name] != null, mark, {
    timeout,
  });

/** Frames of the remote video decoded so far by the page's live peer, and how many peers it made. */
const decoded = (page: Page) =>
  page.evaluate(async () => {
    const pcs = (window as unknown as BenchWindow).__pcs;
    const pc = pcs.filter((p) => p.connectionState !== 'closed').at(-1);
    if (!pc) return { frames: 0, peers: pcs.length };
    const stats = Array.from((await pc.getStats()).values()) as Record<string, unknown>[];
    const video = stats.find((s) => s.type === 'inbound-rtp' && s.kind === 'video');
    return { frames: Number(video?.framesDecoded ?? 0), peers: pcs.length };
  });

let dataDir: string | undefined;
let server: ChildProcess | undefined;
let coturn: Coturn | undefined;
let ns: ShapedNamespace | undefined;
let relay: UdpImpairment | undefined;
const browsers: Browser[] = [];

async function cleanUp(): Promise<void> {
  for (const browser of browsers.splice(0)) await browser.close().catch(() => undefined);
  await stop(server).catch(() => undefined);
  server = undefined;
  await relay?.stop().catch(() => undefined);
  await ns?.close().catch(() => undefined);
  await coturn?.stop().catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

function serverEnv(port: number, mode: Mode): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...benchServerEnv(dataDir as string, port) };
  if (process.env.STUDIO_DIST) env.STUDIO_DIST = process.env.STUDIO_DIST;
  if (mode === 'direct') return { ...env, TURN_URLS: '', TURN_SECRET: '', ICE_TRANSPORT_POLICY: 'all' };
  const turn = mode === 'relay' ? `${coturn?.host}:${coturn?.port}` : `${ns?.hostIp}:${relay?.port}`;
  return {
    ...env,
    // The namespace reaches only the host side of its link (its loopback is forwarded there).
    HOST: '0.0.0.0',
    TURN_URLS: `turn:${turn}?transport=udp`,
    TURN_SECRET: coturn?.secret,
    ICE_TRANSPORT_POLICY: 'relay',
  };
}

async function startServer(port: number, mode: Mode): Promise<string> {
  await stop(server);
  const base = `http://127.0.0.1:${port}`;
  server = run(['server/main.ts'], serverEnv(port, mode));
  await waitForServer(base, server);
  return base;
}

/** The agent, Online on /calls, in a browser of this machine. */
async function agentPage(browser: Browser, base: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: base,
    locale: 'en-US',
    viewport: { width: 1440, height: 900 },
    permissions: ['camera', 'microphone'],
  });
  await context.addInitScript(instrument("Customer's video"));
  const page = await context.newPage();
  await signInAs(page, AGENT);
  return page;
}

async function online(agent: Page): Promise<void> {
  await agent.goto('/calls');
  const status = agent.getByRole('button', { name: /^Availability:/ });
  await status.waitFor();
  if ((await status.getAttribute('aria-label')) !== 'Availability: Online') {
    await status.click();
    await agent.getByRole('menuitemradio', { name: 'Online' }).click();
  }
  await agent.getByRole('button', { name: 'Availability: Online', exact: true }).waitFor();
}

/** A customer joins with a fresh link, the agent answers; resolves once both videos play. */
async function startCall(
  base: string,
  adminToken: string,
  agent: Page,
  customerBrowser: Browser,
  profile: number,
): Promise<{ customer: BrowserContext; ms: number }> {
  await online(agent);
  await resetMarks(agent);
  const { url } = await api<{ url: string }>(base, adminToken, 'POST', '/api/v2/profile/url', { profile });
  const customer = await customerBrowser.newContext({
    baseURL: base,
    locale: 'en-US',
    permissions: ['camera', 'microphone'],
  });
  await customer.addInitScript(instrument("The agent's video"));
  const page = await customer.newPage();
  await page.goto(url, { timeout: 60_000 });
  await page.getByRole('button', { name: 'I agree', exact: true }).click({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Join the call', exact: true }).click({ timeout: 60_000 });
  await agent
    .getByRole('alertdialog')
    .getByRole('button', { name: 'Answer', exact: true })
    .click({ timeout: 60_000 });
  await until(agent, 'videoAt');
  await until(page, 'videoAt');
  const a = await marks(agent);
  const c = await marks(page);
  return {
    customer,
    ms: Math.max(a.videoAt ?? Number.NaN, c.videoAt ?? Number.NaN) - (a.answerAt ?? Number.NaN),
  };
}

async function endCall(agent: Page, customer: BrowserContext): Promise<void> {
  await agent.getByRole('button', { name: 'Hang up' }).click();
  await agent.getByRole('heading', { name: 'How did the call end?' }).waitFor({ timeout: 30_000 });
  await agent.getByRole('radio', { name: 'Complete', exact: true }).check({ force: true });
  await agent.getByRole('button', { name: 'Save status' }).click();
  await agent.getByText('Call closed').waitFor({ timeout: 60_000 });
  await customer.close();
}

async function measureMode(
  mode: Mode,
  port: number,
  profiles: number[],
): Promise<{ samples: number[]; recovery?: { ms: number[]; during: number[]; samePeer: boolean } }> {
  const base = await startServer(port, mode);
  const adminToken = await login(base, ADMIN.email, ADMIN.password);
  const agentBrowser = await launchChromium();
  browsers.push(agentBrowser);
  let customerBrowser = agentBrowser;
  if (mode === 'shaped' && ns) {
    const { chromium } = await import('@playwright/test');
    const { chromiumArgs } = await import('../playwright.config');
    await ns.forwardLoopback(port);
    customerBrowser = await chromium.launch({
      executablePath: ns.chromium(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
      args: chromiumArgs,
    });
    browsers.push(customerBrowser);
  }
  const agent = await agentPage(agentBrowser, base);
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const { customer, ms } = await startCall(
      base,
      adminToken,
      agent,
      customerBrowser,
      profiles.shift() as number,
    );
    if (i >= WARMUP) samples.push(ms);
    await endCall(agent, customer);
  }
  let recovery: { ms: number[]; during: number[]; samePeer: boolean } | undefined;
  if (mode === 'shaped' && ns && CUTS > 0) {
    const { customer } = await startCall(
      base,
      adminToken,
      agent,
      customerBrowser,
      profiles.shift() as number,
    );
    const peers = (await decoded(agent)).peers;
    const ms: number[] = [];
    const during: number[] = [];
    for (let i = 0; i < CUTS; i++) {
      await agent.waitForTimeout(10_000);
      // The agent's decoded frames every 100 ms, from just before the cut until they flow again.
      const timeline: { at: number; frames: number }[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          timeline.push({ at: Date.now(), frames: (await decoded(agent)).frames });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const { downAt, upAt } = await ns.cut(CUT_MS);
      const framesAt = (t: number) => timeline.filter((p) => p.at <= t).at(-1)?.frames ?? 0;
      const deadline = Date.now() + 60_000;
      let back: number | null = null;
      while (back === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        back = timeline.find((p) => p.at >= upAt && p.frames >= framesAt(upAt) + 10)?.at ?? null;
      }
      sampling = false;
      await sampler;
      if (back === null) throw new Error('the video did not come back within 60 s of the link');
      ms.push(back - upAt);
      // Frames decoded while the link was down (after the first second's frames already under way): 0 shows the cut held.
      during.push(framesAt(upAt) - framesAt(downAt + 1_000));
    }
    recovery = { ms, during, samePeer: (await decoded(agent)).peers === peers };
    await endCall(agent, customer);
  }
  for (const browser of browsers.splice(0)) await browser.close();
  return { samples, recovery };
}

async function main() {
  if (!process.argv.includes('--no-build') && !process.env.STUDIO_DIST) buildStudioIfStale();
  const unavailable = await netnsUnavailable();
  const modes: Mode[] = unavailable ? ['direct', 'relay'] : ['direct', 'relay', 'shaped'];
  const calls = modes.length * (WARMUP + RUNS) + 1;
  dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-networks-'));
  const port = await freePort();
  console.log(`Seeding the demo data with ${calls + 10} profiles ...`);
  const code = await finished(
    run(['server/db/seed.ts', '--profiles', String(calls + 10)], serverEnv(port, 'direct')),
  );
  if (code !== 0) throw new Error(`seed failed (${code})`);
  coturn = await startCoturn();
  if (!unavailable) {
    ns = await shapedNamespace({ rateKbit: LINK.rateKbit });
    const nsIp = ns.nsIp;
    relay = await udpImpairment({
      listen: { host: ns.hostIp },
      target: { host: coturn.host, port: coturn.port },
      impaired: (address) => address === nsIp,
      delayMs: LINK.delayMs,
      lossPct: LINK.lossPct,
    });
  }
  const base = await startServer(port, 'direct');
  const profiles = await profileIds(base, await login(base, ADMIN.email, ADMIN.password), calls);
  console.log(`${WARMUP} warm-up + ${RUNS} measured calls per network; load average ${loadAverage()}`);

  const results: Partial<Record<Mode, Awaited<ReturnType<typeof measureMode>>>> = {};
  for (const mode of modes) {
    results[mode] = await measureMode(mode, port, profiles);
    console.log(`  ${mode}: done (load average ${loadAverage()})`);
  }

  console.log('\nAnswer → both videos playing (ms)');
  console.log('network   n   median   p95     min     max');
  for (const mode of modes) {
    const s = spread(results[mode]?.samples ?? []);
    console.log(
      `${mode.padEnd(8)} ${String(s.n).padStart(2)} ${String(s.median).padStart(8)} ${String(s.p95).padStart(7)} ${String(s.min).padStart(7)} ${String(s.max).padStart(7)}`,
    );
  }
  console.log('  direct: peer to peer, no TURN; relay: relay-only through coturn on this machine;');
  console.log(
    `  shaped: relay-only, customer in a namespace at ${LINK.rateKbit} kbit/s, ${LINK.delayMs} ms each way, ${LINK.lossPct} % loss`,
  );
  const recovery = results.shaped?.recovery;
  if (recovery) {
    const r = spread(recovery.ms);
    console.log(
      `\nRecovery from a ${CUT_MS / 1000}-second cut of the shaped link (link back → video decoded again), ${r.n} cuts in one call:`,
    );
    console.log(
      `  median ${r.median} ms, p95 ${r.p95} ms, min ${r.min} ms, max ${r.max} ms; same peer connection: ${recovery.samePeer ? 'yes' : 'NO'}`,
    );
    console.log(`  frames decoded while the link was down: ${recovery.during.join(', ')}`);
  }
  if (unavailable) console.log(`\nshaped: left out (${unavailable})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  main()
    .then(cleanUp)
    .then(() => process.exit(0))
    .catch(async (error) => {
      console.error(error);
      await cleanUp();
      process.exit(1);
    });
}
