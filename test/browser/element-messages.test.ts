// Completion messages and isolation: a message counts when it comes from the
// flow's own popup, or from a trusted origin whose claim the backend confirms
// (caller's group, the flow's provider or connection, changed since the flow
// began); once the flow knows its connection, other IDs are ignored. Several
// elements on one page never take over each other's flow.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  answerConsent,
  decide,
  ended,
  seedConnection,
  serverLog,
  uniqueTag,
  userClick,
  waitEvent,
  waitPopup,
  watch,
  freshSessionEachTest,
  type CapturedPopups,
} from './helpers.js';

/** Posts from a same-origin frame: a window of a trusted origin that is not the flow's popup. */
async function postFromFrame(message: unknown): Promise<void> {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  await new Promise((r) => setTimeout(r));
  (frame.contentWindow as Window).parent.postMessage(message, '*');
  // postMessage is a task: let it be delivered before the frame goes.
  await aTimeout(20);
  frame.remove();
}

/** Resolves once this many messages reached the page: proof that the element had them too. */
function delivered(count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const onMessage = () => {
      if (++seen < count) return;
      removeEventListener('message', onMessage);
      resolve();
    };
    addEventListener('message', onMessage);
  });
}

const success = (connection: string) => ({ eventType: 'AUTHORIZATION_SUCCEEDED', data: { connection } });

describe('completion messages', () => {
  let popups: CapturedPopups;
  let group: string;
  freshSessionEachTest((session) => ({ group, popups } = session));

  it('should ignore forged success claims from a trusted origin that the backend does not confirm', async () => {
    const tag = uniqueTag();
    const other = await seedConnection(group, 'hubspot', 'allow');
    const el = (await fixture(
      html`<connect-provider endpoint="/observe/${tag}/real/api/connect" provider="salesforce" poll-interval="100"></connect-provider>`,
    )) as ConnectProvider;
    await waitUntil(() => el.getAttribute('connection-status') === 'none', 'no connection-status');
    const w = watch(el);
    await userClick(el);
    const popup = await waitPopup(popups);
    await waitEvent(w, 'connect-popup');
    const arrived = delivered(2);
    // Another provider's connection of the same group; a failure no backend can confirm.
    await postFromFrame(success(other));
    await postFromFrame({ eventType: 'AUTHORIZATION_FAILED', data: { error: 'forged' } });
    await arrived;
    await aTimeout(300);
    const checked = (await serverLog(tag)).filter((r) => r.method === 'GET').map((r) => r.path);
    expect(checked, 'the element asked the backend about the claim').to.include(`/api/connect/connections/${other}`);
    expect(w.types(), 'nothing taken over').to.deep.equal(['connect-start', 'connect-popup']);
    expect(el.state).to.equal('authorizing');
    await answerConsent(popup, 'allow');
    const end = await ended(w);
    expect(end.type).to.equal('connect-success');
    expect(end.detail.connection.provider).to.equal('salesforce');
  });

  it('should ignore, when reconnecting, claims of other IDs and of its own connection unchanged since the flow began', async () => {
    const tag = uniqueTag();
    const other = await seedConnection(group, 'hubspot', 'allow');
    const old = await seedConnection(group, 'salesforce', 'allow');
    const el = (await fixture(
      html`<connect-provider endpoint="/observe/${tag}/real/api/connect" provider="salesforce" poll-interval="100"></connect-provider>`,
    )) as ConnectProvider;
    // At rest it found the caller's salesforce connection: the click reconnects it.
    await waitUntil(() => el.getAttribute('connection-status') === 'working', 'no connection-status');
    const w = watch(el);
    await userClick(el);
    const popup = await waitPopup(popups);
    await waitEvent(w, 'connect-popup');
    const arrived = delivered(2);
    await postFromFrame(success(other));
    await postFromFrame(success(old));
    await arrived;
    await aTimeout(300);
    const checked = (await serverLog(tag)).filter((r) => r.method === 'GET').map((r) => r.path);
    expect(checked, 'another ID is not even asked about').to.not.include(`/api/connect/connections/${other}`);
    expect(w.types(), 'nothing taken over').to.deep.equal(['connect-start', 'connect-popup']);
    await answerConsent(popup, 'allow');
    await waitEvent(w, 'connect-connection');
    const arrivedLate = delivered(1);
    await postFromFrame(success(other));
    await arrivedLate;
    const end = await ended(w);
    expect(end.type).to.equal('connect-success');
    expect(end.detail.connection.id, 'another ID during verification changes nothing').to.equal(old);
    expect(w.events.filter((e) => e.type === 'connect-connection').map((e) => e.detail.connectionId)).to.deep.equal([
      old,
    ]);
  });

  it("should accept a trusted origin's claim the backend confirms (the backend's messageOrigin)", async () => {
    // No list route behind this backend: only the claim can tell the element.
    const tag = uniqueTag();
    const el = (await fixture(
      html`<connect-provider endpoint="/observe/${tag}/nolist/api/connect" provider="slack" poll-interval="100"></connect-provider>`,
    )) as ConnectProvider;
    const w = watch(el);
    await userClick(el);
    await waitEvent(w, 'connect-popup');
    const { connectionId } = await decide(group, 'allow');
    await postFromFrame(success(connectionId!));
    const end = await ended(w, 5000);
    expect(end.type).to.equal('connect-success');
    expect(end.detail.connection.id).to.equal(connectionId);
  });

  it("should ignore, in update mode, a confirmed claim for another of the caller's connections", async () => {
    const mine = await seedConnection(group, 'hubspot');
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="hubspot" connection-id=${mine} poll-interval="100"></connect-provider>`,
    )) as ConnectProvider;
    const w = watch(el);
    await userClick(el);
    const popup = await waitPopup(popups);
    await waitEvent(w, 'connect-popup');
    // A connection of the same group that changed after the flow began.
    const other = await seedConnection(group, 'slack', 'allow');
    const arrived = delivered(1);
    await postFromFrame(success(other));
    await arrived;
    await aTimeout(300);
    expect(w.types()).to.deep.equal(['connect-start', 'connect-popup']);
    await answerConsent(popup, 'allow');
    const end = await ended(w);
    expect(end.type).to.equal('connect-success');
    expect(end.detail.connection.id).to.equal(mine);
  });

  it('should read a failure from its own popup in the older form (data.message), and no failure from other windows', async () => {
    const el = (await fixture(
      html`<connect-provider endpoint="/fixture/old-failure" provider="slack" message-origins=${location.origin}></connect-provider>`,
    )) as ConnectProvider;
    const w = watch(el);
    // A failure from a trusted origin that is not the popup, before the popup's own (it waits 1 s):
    // no backend can confirm a failure, so it is ignored.
    await userClick(el);
    await waitEvent(w, 'connect-popup');
    const first = delivered(1);
    await postFromFrame({ eventType: 'AUTHORIZATION_FAILED', data: { error: 'forged' } });
    await first;
    expect(w.terminals()).to.have.length(0);
    const end = await ended(w);
    expect(end.detail).to.include({ code: 'authorization_failed', message: 'old form' });
  });

  describe('with several elements on one page', () => {
    type Decision = 'allow' | 'deny';
    async function twoOrThree(decisions: Decision[], order: number[]) {
      const updated = await seedConnection(group, 'hubspot');
      const templates = [
        html`<connect-provider endpoint="/api/connect" provider="salesforce" poll-interval="100"></connect-provider>`,
        html`<connect-provider endpoint="/api/connect" provider="hubspot" connection-id=${updated} poll-interval="100"></connect-provider>`,
        html`<connect-provider endpoint="/api/connect" provider="slack" poll-interval="100"></connect-provider>`,
      ].slice(0, decisions.length);
      const els: ConnectProvider[] = [];
      for (const template of templates) els.push((await fixture(template)) as ConnectProvider);
      const watches = els.map(watch);
      for (let i = 0; i < els.length; i++) {
        await userClick(els[i]);
        await waitPopup(popups, i + 1);
      }
      for (const i of order) await answerConsent(popups.popups[i], decisions[i]);
      const ends = await Promise.all(watches.map((w) => ended(w)));
      await aTimeout(200);
      ends.forEach((end, i) => {
        const where = `element ${i} (${decisions[i]}): ${watches[i].types().join(', ')}`;
        expect(watches[i].terminals(), where).to.have.length(1);
        if (decisions[i] === 'deny') {
          expect(end.detail.code, where).to.equal('authorization_failed');
        } else {
          expect(end.type, where).to.equal('connect-success');
          expect(end.detail.connection.provider, where).to.equal(['salesforce', 'hubspot', 'slack'][i]);
          if (i === 1) expect(end.detail.connection.id, where).to.equal(updated);
        }
      });
      expect(els[0].shadowRoot!.querySelector('[part=status]')!.textContent).to.contain('Salesforce');
    }

    it('should end a create and an update flow each with its own outcome (Allow the second first, Deny the first)', () =>
      twoOrThree(['deny', 'allow'], [1, 0]));
    it('should end a create and an update flow each with its own outcome (Allow the first, Deny the second)', () =>
      twoOrThree(['allow', 'deny'], [0, 1]));
    it('should end three flows each with its own outcome, in any order', () =>
      twoOrThree(['allow', 'allow', 'deny'], [2, 0, 1]));
    it('should end three flows each with its own outcome, all allowed in reverse order', () =>
      twoOrThree(['allow', 'allow', 'allow'], [2, 1, 0]));
  });
});
