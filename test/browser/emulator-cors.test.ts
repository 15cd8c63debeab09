import { openByClick } from './helpers.js';
import { expect } from '@open-wc/testing';

// The page runs on the test runner's origin; the emulator listens on another
// loopback port: every call below is cross-origin, with no proxy in between,
// as the platform's own browser SDK calls the real service.
interface Target {
  baseUrl: string;
  apiKey: string;
}

async function emulatorOn(query = ''): Promise<Target> {
  const response = await fetch(`/__cross__/emulator${query}`);
  expect(response.status).to.equal(200);
  return response.json();
}

/** The headers the platform's browser SDK sends (docs/emulator.md, CORS). */
function sdkHeaders(target: Target, json = false): Record<string, string> {
  return {
    'X-Api-Key': target.apiKey,
    'X-Amp-Client': 'connect-provider-test',
    'X-Amp-Client-Version': '0.0.0',
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  };
}

async function call(target: Target, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${target.baseUrl}${path}`, {
    ...init,
    headers: { ...sdkHeaders(target, init.body !== undefined), ...(init.headers as object) },
  });
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

type Completion = { eventType: string; data: { connection?: string; error?: string } };

function completionFrom(popup: Window, origin: string): Promise<Completion> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      window.removeEventListener('message', onMessage);
      reject(new Error('no completion message within 15 s'));
    }, 15000);
    function onMessage(event: MessageEvent) {
      // As the platform's SDK: only from the API host's origin, and from our popup.
      if (event.origin !== origin || event.source !== popup) return;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      resolve(event.data);
    }
    window.addEventListener('message', onMessage);
  });
}

/** Presses the consent page's Allow in the popup: the same form POST its button sends, targeted at the popup. */
function submitConsent(url: string, windowName: string, decision: string): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = url;
  form.target = windowName;
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'decision';
  input.value = decision;
  form.append(input);
  document.body.append(form);
  form.submit();
  form.remove();
}

describe('the emulator, called from a page on another origin', () => {
  it('should run a whole OAuth connect with only the platform operations', async () => {
    const target = await emulatorOn();
    const apiOrigin = new URL(target.baseUrl).origin;
    expect(apiOrigin).to.not.equal(window.location.origin);
    const groupRef = `cors-${Math.random().toString(36).slice(2, 10)}`;

    const project = await (await call(target, '/projects/demo?includeEntitlements=true')).json();
    expect(project.id).to.equal('proj_demo');
    expect(project.entitlements.brandingRemoval.value).to.equal(false);

    const provider = await (await fetch(`${target.baseUrl}/providers/slack`)).json();
    expect(provider.oauth2Opts.grantType).to.equal('authorizationCode');

    const before = await call(target, `/projects/demo/connections?provider=slack&groupRef=${groupRef}`);
    expect(await before.json()).to.deep.equal([]);

    const connect = await call(target, '/oauth-connect', {
      method: 'POST',
      body: JSON.stringify({ projectIdOrName: 'demo', provider: 'slack', groupRef, consumerRef: 'cors-user' }),
    });
    expect(connect.status).to.equal(200);
    const url: string = await connect.json();
    expect(new URL(url).origin).to.equal(apiOrigin);

    const name = `consent-${groupRef}`;
    const popup = (await openByClick(url, name))!;
    expect(popup).to.not.equal(null);
    const completion = completionFrom(popup, apiOrigin);
    await sleep(300);
    submitConsent(url, name, 'allow');
    const message = await completion;
    expect(message.eventType).to.equal('AUTHORIZATION_SUCCEEDED');
    const id = message.data.connection!;
    for (let i = 0; i < 100 && !popup.closed; i++) await sleep(50);
    expect(popup.closed).to.equal(true);

    let connection = await (await call(target, `/projects/demo/connections/${id}`)).json();
    expect(connection.group.groupRef).to.equal(groupRef);
    for (let i = 0; i < 100 && connection.status === 'created'; i++) {
      await sleep(50);
      connection = await (await call(target, `/projects/demo/connections/${id}`)).json();
    }
    expect(connection.status).to.equal('working');

    const listed = await (await call(target, `/projects/demo/connections?provider=slack&groupRef=${groupRef}`)).json();
    expect(listed.map((c: { id: string }) => c.id)).to.deep.equal([id]);

    const deleted = await call(target, `/projects/demo/connections/${id}`, { method: 'DELETE' });
    expect(deleted.status).to.equal(204);
    const gone = await call(target, `/projects/demo/connections/${id}`);
    expect(gone.status).to.equal(404);
    expect(gone.headers.get('content-type')).to.equal('application/problem+json');
    expect(gone.headers.get('x-request-id')).to.be.a('string');
    const problem = await gone.json();
    expect(problem.instance).to.equal(`${target.baseUrl}/projects/demo/connections/${id}`);
  });

  it('should let a page read problems, such as a refused API key', async () => {
    const target = await emulatorOn();
    const response = await call(target, '/projects/demo', { headers: { 'X-Api-Key': 'wrong' } });
    expect(response.status).to.equal(401);
    expect((await response.json()).status).to.equal(401);
  });

  it('should be refused by an emulator that allows only other origins', async () => {
    const target = await emulatorOn('?restricted');
    let error: unknown;
    try {
      await call(target, '/projects/demo');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TypeError);
  });
});
