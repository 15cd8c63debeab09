import { openByClick } from './helpers.js';
import { expect } from '@open-wc/testing';

type Completion = { eventType: string; data: { connection?: string; error?: string } };

async function consentUrl(query = ''): Promise<string> {
  const response = await fetch(`/__test__/consent-url${query}`);
  expect(response.status).to.equal(200);
  return (await response.json()).url;
}

/** Waits until the popup shows a page with the given button, and returns it. */
async function buttonInPopup(popup: Window, value: string): Promise<HTMLButtonElement> {
  for (let i = 0; i < 200; i++) {
    try {
      const button = popup.document?.querySelector<HTMLButtonElement>(`button[value="${value}"]`);
      if (button && popup.document.readyState === 'complete') return button;
    } catch {
      // the popup is between documents
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${value} button appeared in the popup`);
}

function nextCompletion(popup: Window): Promise<{ data: Completion; origin: string }> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== popup) return;
      window.removeEventListener('message', onMessage);
      resolve({ data: event.data, origin: event.origin });
    };
    window.addEventListener('message', onMessage);
  });
}

/** Waits (at most 5 s) for the callback page to close the popup, and fails if it stays open. */
async function expectClosed(popup: Window): Promise<void> {
  for (let i = 0; i < 100 && !popup.closed; i++) await new Promise((r) => setTimeout(r, 50));
  expect(popup.closed, 'the callback page closed the popup').to.equal(true);
}

describe('the emulator consent page in a real popup', () => {
  it('should post AUTHORIZATION_SUCCEEDED to the opener when Allow is clicked, then close', async () => {
    const url = await consentUrl('?provider=slack');
    const popup = (await openByClick(url, 'consent'))!;
    expect(popup).to.not.equal(null);
    const button = await buttonInPopup(popup, 'allow');
    expect(popup.document.body.textContent).to.contain('wants to connect to Slack');
    const completion = nextCompletion(popup);
    button.click();
    const { data, origin } = await completion;
    expect(origin).to.equal(window.location.origin);
    expect(data.eventType).to.equal('AUTHORIZATION_SUCCEEDED');
    expect(data.data.connection).to.match(/^conn_/);
    await expectClosed(popup);
    expect(popup.closed).to.equal(true);
  });

  it('should post AUTHORIZATION_FAILED when Deny is clicked', async () => {
    const url = await consentUrl('?provider=notion');
    const popup = (await openByClick(url, 'consent'))!;
    const button = await buttonInPopup(popup, 'deny');
    const completion = nextCompletion(popup);
    button.click();
    const { data } = await completion;
    expect(data).to.deep.equal({
      eventType: 'AUTHORIZATION_FAILED',
      data: { error: 'The user denied access to Notion.' },
    });
    await expectClosed(popup);
  });

  it('should re-authorize conn_demo in update mode', async () => {
    const url = await consentUrl('?connectionId=conn_demo');
    const popup = (await openByClick(url, 'consent'))!;
    const button = await buttonInPopup(popup, 'allow');
    expect(popup.document.body.textContent).to.contain('wants to reconnect to HubSpot');
    const completion = nextCompletion(popup);
    button.click();
    expect((await completion).data.data.connection).to.equal('conn_demo');
    await expectClosed(popup);
  });
});
