/**
 * A video call between two headless Chromium pages on loopback, for measuring the frame rate the receiving side
 * (the agent) decodes while other work runs on the machine: the customer's page sends its fake camera (a Y4M
 * file, e.g. a drawn document), the agent's page receives it; the offer and answer go through this process
 * (no server, no TURN). `framesPerSecond(ms)` counts the agent's decoded video frames over a window.
 */
import { createServer, type Server } from 'node:http';
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../playwright.config';
import { chromiumExecutable } from '../scripts/sampleDocuments';

export interface ReceivingCall {
  /** Video frames the agent's page decoded per second over `ms`, and the inbound stream's own figure then. */
  framesPerSecond(ms: number): Promise<{ decoded: number; reported: number | null }>;
  close(): Promise<void>;
}

type Side = Window & { pc: RTCPeerConnection };

/** Waits until the page's connection has gathered its candidates, then gives its local description. */
const gathered = (page: Page) =>
  page.evaluate(async () => {
    const { pc } = window as unknown as Side;
    if (pc.iceGatheringState !== 'complete')
      await new Promise<void>((resolve) =>
        pc.addEventListener('icegatheringstatechange', () => {
          if (pc.iceGatheringState === 'complete') resolve();
        }),
      );
    return JSON.parse(JSON.stringify(pc.localDescription)) as RTCSessionDescriptionInit;
  });

const decodedFrames = (page: Page) =>
  page.evaluate(async () => {
    let frames = 0;
    let fps: number | null = null;
    (await (window as unknown as Side).pc.getStats()).forEach((report) => {
      if (report.type === 'inbound-rtp' && report.kind === 'video') {
        frames += (report as RTCInboundRtpStreamStats).framesDecoded ?? 0;
        fps = (report as RTCInboundRtpStreamStats).framesPerSecond ?? fps;
      }
    });
    return { frames, fps };
  });

/** Starts the call with `video` (a Y4M file) as the customer's camera; resolves once the agent decodes frames. */
export async function startReceivingCall(video: string): Promise<ReceivingCall> {
  // A page of 127.0.0.1 is a secure context, which getUserMedia needs.
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>call</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const browser: Browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${video}`],
  });
  try {
    const context = await browser.newContext({ permissions: ['camera'] });
    const customer = await context.newPage();
    const agent = await context.newPage();
    await Promise.all([customer.goto(base), agent.goto(base)]);
    await customer.evaluate(async () => {
      const pc = new RTCPeerConnection();
      (window as unknown as Side).pc = pc;
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 } });
      for (const track of stream.getTracks()) pc.addTrack(track, stream);
      await pc.setLocalDescription(await pc.createOffer());
    });
    const offer = await gathered(customer);
    await agent.evaluate(async (remote) => {
      const pc = new RTCPeerConnection();
      (window as unknown as Side).pc = pc;
      await pc.setRemoteDescription(remote);
      await pc.setLocalDescription(await pc.createAnswer());
    }, offer);
    const answer = await gathered(agent);
    await customer.evaluate((remote) => (window as unknown as Side).pc.setRemoteDescription(remote), answer);
    const deadline = Date.now() + 60_000;
    while ((await decodedFrames(agent)).frames === 0) {
      if (Date.now() > deadline) throw new Error('the agent decoded no video frame within 60 s');
      await agent.waitForTimeout(200);
    }
    return {
      async framesPerSecond(ms) {
        const before = await decodedFrames(agent);
        const started = performance.now();
        await new Promise((resolve) => setTimeout(resolve, ms));
        const after = await decodedFrames(agent);
        return {
          decoded: ((after.frames - before.frames) * 1000) / (performance.now() - started),
          reported: after.fps,
        };
      },
      async close() {
        await browser.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  } catch (error) {
    await browser.close();
    server.close();
    throw error;
  }
}
