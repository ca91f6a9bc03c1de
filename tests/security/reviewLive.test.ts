/**
 * `review.case_changed` reaches only the staff sockets of the case's company whose user reviews
 * profiles (`review_profiles`); a staff socket of another company, or of a user without review_profiles, hears
 * nothing of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '#contract/companies';
import type { ReviewCase } from '#contract/review';
import type { ReviewCaseChanged } from '#contract/socket';
import { bearer, get, PASSWORDS, post, type TestApp, tokenFor, userId } from '../server/helpers';
import { type ClientSocket, type LiveApp, liveApp } from '../server/liveSockets';

let live: LiveApp;
let t: TestApp;
const access = { admin: '', agent: '', viewer: '', globex: '' };

beforeAll(async () => {
  live = await liveApp();
  t = live.t;
  access.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  access.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  access.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  access.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
}, 180_000);
afterAll(() => live.close());

async function connect(token: string): Promise<{ socket: ClientSocket; heard: ReviewCaseChanged[] }> {
  const heard: ReviewCaseChanged[] = [];
  const socket = await live.studio(token, (s) => s.on('review.case_changed', (event) => heard.push(event)));
  // The rooms are joined right after the connection: give the server a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { socket, heard };
}

async function until(check: () => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('review.case_changed', () => {
  it('reaches the company’s reviewers only: not another company’s staff, not staff without review_profiles', async () => {
    const reviewer = await connect(access.admin);
    const viewer = await connect(access.viewer);
    const globex = await connect(access.globex);
    const agentId = await userId(t.app, 'agent@acme.test');

    const list = await get<{ results: ReviewCase[] }>(
      t.app,
      '/api/v2/review/cases?view=unassigned&limit=1',
      access.agent,
    );
    const target = list.body.results[0];
    if (!target) throw new Error('no unassigned case');
    const taken = await post<ReviewCase>(t.app, `/api/v2/review/cases/${target.id}/assign`, {}, access.agent);
    expect(taken.status).toBe(200);
    await until(() => reviewer.heard.some((e) => e.id === target.id));
    expect(reviewer.heard).toContainEqual({ id: target.id, state: target.state, assignee: agentId });

    const released = await post(t.app, `/api/v2/review/cases/${target.id}/unassign`, {}, access.agent);
    expect(released.status).toBe(200);
    await until(() => reviewer.heard.some((e) => e.id === target.id && e.assignee === null));
    // Both events reached the reviewer; by now they would have reached the others too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(viewer.heard).toEqual([]);
    expect(globex.heard).toEqual([]);
  });

  it('follows a change of groups or of a group’s permissions on a connected socket, without a reconnect', async () => {
    const agentId = await userId(t.app, 'agent@acme.test');
    const agent = await connect(access.agent);
    const patchAs = async (path: string, payload: object) => {
      const answer = await t.app.inject({
        method: 'PATCH',
        url: path,
        payload,
        headers: bearer(access.admin),
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as { groups?: number[] };
    };
    const groups = await get<Group[]>(t.app, '/api/v2/group', access.admin);
    const reviewers = groups.body.find((g) => g.name === 'Reviewers');
    if (!reviewers) throw new Error('no Reviewers group');
    /** Takes and releases an unassigned case as the admin: every reviewer's socket hears both. */
    const someChange = async () => {
      const list = await get<{ results: ReviewCase[] }>(
        t.app,
        '/api/v2/review/cases?view=unassigned&limit=1',
        access.admin,
      );
      const target = list.body.results[0];
      if (!target) throw new Error('no unassigned case');
      await post(t.app, `/api/v2/review/cases/${target.id}/assign`, {}, access.admin);
      await post(t.app, `/api/v2/review/cases/${target.id}/unassign`, {}, access.admin);
      return target.id;
    };
    const hears = async (yes: boolean) => {
      // The same case may come round again: only what this round sends counts.
      agent.heard.length = 0;
      const id = await someChange();
      if (yes) await until(() => agent.heard.some((e) => e.id === id && e.assignee === null));
      else {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(agent.heard.filter((e) => e.id === id)).toEqual([]);
      }
    };

    await hears(true);
    // Out of the Reviewers group: the same socket hears nothing more.
    await patchAs(`/api/v2/user/${agentId}`, { password: PASSWORDS.admin, groups: [] });
    await hears(false);
    // Back in the group: it hears again.
    await patchAs(`/api/v2/user/${agentId}`, { password: PASSWORDS.admin, groups: [reviewers.id] });
    await hears(true);
    // The group loses review_profiles: its members' sockets stop hearing; given back, they hear again.
    const without = reviewers.permissions.filter((p) => p !== 'review_profiles');
    await patchAs(`/api/v2/group/${reviewers.id}`, { permissions: without });
    await hears(false);
    await patchAs(`/api/v2/group/${reviewers.id}`, { permissions: reviewers.permissions });
    await hears(true);
    expect(agent.socket.connected).toBe(true);
  });

  it('tells the reviewers of a case opened by a profile set to Pending Review', async () => {
    const reviewer = await connect(access.agent);
    const created = await post<{ id: number }>(
      t.app,
      '/api/v2/profile',
      { id_card_number: `LIVE-${Date.now()}`, name: 'Live Person' },
      access.admin,
    );
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/profile/${created.body.id}/status`,
      payload: { status: 'Pending Review' },
      headers: bearer(access.admin),
    });
    expect(changed.statusCode).toBe(200);
    const list = await get<{ results: ReviewCase[] }>(
      t.app,
      `/api/v2/review/cases?profile=${created.body.id}`,
      access.agent,
    );
    const opened = list.body.results[0];
    if (!opened) throw new Error('no case opened');
    await until(() => reviewer.heard.some((e) => e.id === opened.id));
    expect(reviewer.heard).toContainEqual({ id: opened.id, state: 'open', assignee: null });
  });
});
