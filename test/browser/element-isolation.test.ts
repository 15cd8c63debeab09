// A flow takes only its own connection: the one it asked for (provider,
// workspace, provider app) made by the same person. Two elements for two
// workspaces of one provider, and two coworkers of one group, never end each
// other's flows. The rest state stays group-wide; flows stay personal.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  answerConsent,
  ended,
  freshSessionEachTest,
  seedConnection,
  signInAs,
  userClick,
  waitEvent,
  waitPopup,
  watch,
  type CapturedPopups,
} from './helpers.js';

describe('a flow takes only its own connection', () => {
  let popups: CapturedPopups;
  let group: string;
  freshSessionEachTest((session) => ({ group, popups } = session));

  it("should not end a sandbox flow with the production workspace's connection", async () => {
    const box = (await fixture(html`<div>
      <connect-provider endpoint="/api/connect" provider="salesforce" provider-workspace-ref="production" poll-interval="100"></connect-provider>
      <connect-provider endpoint="/api/connect" provider="salesforce" provider-workspace-ref="sandbox" poll-interval="100"></connect-provider>
    </div>`)) as HTMLElement;
    const [production, sandbox] = [...box.querySelectorAll('connect-provider')];
    await Promise.all([production.updateComplete, sandbox.updateComplete]);
    const wp = watch(production);
    const ws = watch(sandbox);
    await userClick(production);
    const productionPopup = await waitPopup(popups, 1);
    await waitEvent(wp, 'connect-popup');
    await userClick(sandbox);
    const sandboxPopup = await waitPopup(popups, 2);
    await waitEvent(ws, 'connect-popup');
    await answerConsent(productionPopup, 'allow');
    const end = await ended(wp);
    expect(end.type).to.equal('connect-success');
    expect(end.detail.connection.providerWorkspaceRef).to.equal('production');
    await aTimeout(800);
    expect(ws.types(), 'the sandbox flow still waits for its own consent').to.deep.equal([
      'connect-start',
      'connect-popup',
    ]);
    expect(sandboxPopup.closed, 'its popup stays open').to.equal(false);
    sandbox.cancel();
    await ended(ws);
  });

  it("should not end Bob's severed wait with his coworker Alice's new connection", async () => {
    signInAs(`${group}~bob`);
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="salesforce" poll-interval="100" closed-grace="5000"></connect-provider>`,
    )) as ConnectProvider;
    await el.updateComplete;
    const w = watch(el);
    await userClick(el);
    const popup = await waitPopup(popups);
    await waitEvent(w, 'connect-popup');
    // Bob closes his popup: the element waits, asking the backend for his own new connection.
    popup.close();
    await aTimeout(400);
    await seedConnection(group, 'salesforce', 'allow', { consumer: 'alice' });
    await aTimeout(1200);
    expect(w.types(), "Alice's connection is not Bob's").to.deep.equal(['connect-start', 'connect-popup']);
    el.cancel();
    expect((await ended(w)).type).to.equal('connect-cancel');
  });

  it('should still see the group-wide connection at rest', async () => {
    await seedConnection(group, 'salesforce', 'allow', { consumer: 'alice' });
    signInAs(`${group}~bob`);
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`,
    )) as ConnectProvider;
    await waitUntil(() => el.hasAttribute('connection-status'), 'no connection-status');
    expect(el.getAttribute('connection-status')).to.equal('working');
  });
});
