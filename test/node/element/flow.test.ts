// The connect flow (src/element/flow.ts) in Node, state by state of machine.ts's tables: the popup way and the form
// way, the popup blocked, closed, severed and timed out, bad credentials, a backend that fails then passes, a proxy's
// HTML page, and cancel in every state with exactly one terminal event and nothing held after the end. Each state's
// event is checked against EFFECTS as the flow enters it. The flow runs on node:test's mocked timers, against a fake
// backend (a fetch that answers as docs/server.md's routes do) and a fake page: the browser globals the flow and its
// units read (window, document, navigator, open, the screen, fetch) are installed for each test and removed after,
// as poller.test.ts and backend-session.test.ts do.
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { Flow, type FlowConfig } from '../../../src/element/flow.js';
import { EFFECTS, type StateEffects, type StateName } from '../../../src/element/machine.js';
import { CLOSED_CHECK, QUICK_POLLS, SEVERED_POLL } from '../../../src/element/timing.js';
import type { Connection } from '../../../src/shared/types.js';
import { sampleConnection } from '../../shared/fixtures.js';

const ENDPOINT = 'https://app.test/api/connect';
const PLATFORM = 'https://platform.test';
const OAUTH_URL = `${PLATFORM}/oauth/authorize?state=s1`;
const INTERVAL = 100;
const GRACE = 2000;
const TIMEOUT = 10000;

class FakePopup {
  closed = false;
  document = { title: '', body: { textContent: '', style: { cssText: '' } } };
  location = { replace: (url: string) => (this.url = url) };
  constructor(
    public url: string,
    /** The window name and the features open() was given. */
    public name = '',
    public features = '',
  ) {}
  close(): void {
    this.closed = true;
  }
}

interface Reply {
  status?: number;
  body?: unknown;
  type?: string;
}

/** The host backend as docs/server.md describes its routes, over the caller's connections. */
class FakeBackend {
  connections: Connection[] = [];
  requests: { method: string; path: string; body?: Record<string, unknown> }[] = [];
  /** Replies given before the route's own answer, by `METHOD path` (no query). */
  #queued = new Map<string, Reply[]>();

  /** The next answers of a route, before its own. */
  queue(route: string, ...replies: Reply[]): void {
    this.#queued.set(route, [...(this.#queued.get(route) ?? []), ...replies]);
  }

  /** How many requests went to a route (`METHOD path`, no query). */
  count(route: string): number {
    return this.requests.filter((r) => `${r.method} ${r.path.split('?')[0]}` === route).length;
  }

  fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const { pathname, search } = new URL(url);
    const path = pathname.slice(new URL(ENDPOINT).pathname.length);
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    this.requests.push({ method, path: path + search, body });
    const reply = this.#queued.get(`${method} ${path}`)?.shift() ?? this.#route(method, path, body);
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null);
    return new Response(text, {
      status: reply.status ?? 200,
      headers: { 'content-type': reply.type ?? 'application/json', date: new Date().toUTCString() },
    });
  };

  #route(method: string, path: string, body?: Record<string, unknown>): Reply {
    const [, id] = /^\/connections\/([^/:]+)$/.exec(path) ?? [];
    if (method === 'POST' && path === '/oauth-connect') return { body: { url: OAUTH_URL, messageOrigin: PLATFORM } };
    if (method === 'PATCH' && path.endsWith(':oauth-update')) return { body: { url: OAUTH_URL } };
    if (method === 'GET' && path === '/connections') return { body: this.connections };
    if (method === 'POST' && path === '/connections') {
      const made = sampleConnection({ id: 'conn_form', provider: String(body?.provider), status: 'working' });
      this.connections.push(made);
      return { status: 201, body: made };
    }
    const found = this.connections.find((c) => c.id === decodeURIComponent(id ?? ''));
    if (!found) return { status: 404, body: { title: 'Not Found', status: 404 } };
    if (method === 'PATCH') Object.assign(found, { updateTime: new Date().toISOString() });
    return { body: found };
  }
}

/** The page: what the flow and its units read of the browser. */
class FakePage {
  window = new EventTarget();
  document = Object.assign(new EventTarget(), { hidden: false });
  navigator = { onLine: true, userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' };
  /** The page's own frame: null at the top; a sandboxed iframe's element (its sandbox flags) inside one. */
  frameElement: { sandbox: Set<string> & { contains(token: string): boolean; length: number } } | null = null;
  popups: FakePopup[] = [];
  /** The browser blocks popups (open returns null). */
  blocking = false;
  /** open() throws, as in a frame sandboxed without allow-popups. */
  throwing = false;
  backend = new FakeBackend();
  #saved = new Map<string, PropertyDescriptor | undefined>();

  install(): void {
    const globals: Record<string, unknown> = {
      window: this.window,
      document: this.document,
      navigator: this.navigator,
      frameElement: this.frameElement,
      open: (url: string, name: string, features: string) => {
        if (this.throwing) throw new DOMException('blocked by the sandbox', 'SecurityError');
        return this.blocking ? null : this.popups[this.popups.push(new FakePopup(url, name, features)) - 1];
      },
      screenX: 0,
      screenY: 0,
      outerWidth: 1200,
      outerHeight: 900,
      fetch: this.backend.fetch,
    };
    for (const [name, value] of Object.entries(globals)) {
      this.#saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
      Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
    }
  }

  uninstall(): void {
    for (const [name, descriptor] of this.#saved) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else Reflect.deleteProperty(globalThis, name);
    }
  }

  /** A `message` event on the page, as a window of `origin` posts it. */
  message(source: unknown, data: unknown, origin = PLATFORM): void {
    this.window.dispatchEvent(Object.assign(new Event('message'), { data, source, origin }));
  }
}

const success = (id: string) => ({ eventType: 'AUTHORIZATION_SUCCEEDED', data: { connection: id } });
const TERMINAL = ['connect-success', 'connect-error', 'connect-cancel'];

let page: FakePage;

/** Lets fetches, answers and their awaiters run (the fake backend answers at once). */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves the mocked clock `ms` forward, a little at a time, letting what it started run. */
async function advance(ms: number, step = 10): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    mock.timers.tick(Math.min(step, ms - done));
    await settle();
  }
}

/**
 * A flow on the fake page, with its events, warnings and the states it entered. The host checks, as each event is
 * told, that it is the one EFFECTS names for the state the flow just entered (connect-status is told while verifying).
 */
function start(config: Partial<FlowConfig> = {}) {
  const events: { type: string; detail: Record<string, unknown>; state: StateName }[] = [];
  const warnings: string[] = [];
  const entered: StateName[] = [];
  const flow: Flow = new Flow(
    {
      emit: (type, detail) => {
        const state = flow.state.name;
        if (type !== 'connect-status')
          assert.equal(type, (EFFECTS[state] as StateEffects).tells, `the event on entering ${state}`);
        events.push({ type, detail: detail as Record<string, unknown>, state });
        return true;
      },
      changed: () => entered.push(flow.state.name),
      connectionRead: () => {},
      warn: (message) => warnings.push(message),
    },
    {
      endpoint: ENDPOINT,
      request: { mode: 'create', provider: 'hubspot' },
      provider: 'hubspot',
      body: { provider: 'hubspot' },
      headers: {},
      pollInterval: INTERVAL,
      timeout: TIMEOUT,
      closedGrace: GRACE,
      popupWidth: 500,
      popupHeight: 600,
      messageOrigins: '',
      popupText: 'Connecting…',
      ...config,
    },
  );
  const outcome = flow.promise.then(
    (connection) => ({ connection, error: undefined }),
    (error: Error & { code: string }) => ({ connection: undefined, error }),
  );
  const types = () => events.map((e) => e.type);
  /** Exactly one terminal event, nothing held, and nothing more however the flow is then poked. */
  const ended = async (type: string, code?: string) => {
    await settle();
    assert.deepEqual(
      types().filter((t) => TERMINAL.includes(t)),
      [type],
      `one terminal event: ${types().join(', ')}`,
    );
    assert.equal(flow.done, true);
    assert.equal(flow.held, 0, 'no timer, request or listener held after the end');
    assert.ok(
      page.popups.every((p) => p.closed),
      'the popup closed',
    );
    const before = events.length;
    flow.cancel('cancelled');
    flow.fail('timeout', 'late');
    await advance(TIMEOUT);
    assert.equal(events.length, before, 'nothing after the end');
    const { error } = await outcome;
    if (code) assert.equal(error?.code, code);
    if (error) assert.notEqual(error.message, '', 'the error says what happened');
    return outcome;
  };
  return { flow, events, types, warnings, entered, outcome, ended };
}

/** A popup flow brought to `authorizing`: the popup went to the OAuth URL. */
async function authorizing(config: Partial<FlowConfig> = {}) {
  const run = start(config);
  run.flow.begin();
  await settle();
  assert.equal(run.flow.state.name, 'authorizing');
  return run;
}

/** The user allowed: the platform made the connection and the popup posts its success. */
function allow(connection: Connection = sampleConnection({ id: 'conn_new', status: 'working' })): Connection {
  page.backend.connections.push(connection);
  page.message(page.popups[0], success(connection.id));
  return connection;
}

/** An authorizing flow whose popup reads closed, once the watch noticed: severed. */
async function severed(config: Partial<FlowConfig> = {}) {
  const run = await authorizing(config);
  page.popups[0]!.closed = true;
  await advance(CLOSED_CHECK);
  assert.equal(run.flow.state.name, 'severed');
  return run;
}

/** Each test of the suite on a fake page of its own, on mocked timers. */
function onFakePage(): void {
  beforeEach(() => {
    page = new FakePage();
    page.install();
    mock.timers.enable({ apis: ['setTimeout'] });
  });
  afterEach(() => {
    mock.timers.reset();
    page.uninstall();
  });
}

/**
 * The host records each event and state as the flow tells it: cancel `flow` from inside the first that `when` picks,
 * as an element's listener (or its update) may.
 */
function cancelOn<T>(told: T[], flow: Flow, when: (item: T) => boolean): void {
  const record = told.push.bind(told);
  told.push = (...items) => {
    const n = record(...items);
    if (when(items[0]!)) flow.cancel('cancelled');
    return n;
  };
}

describe('Flow', () => {
  onFakePage();

  describe('the popup way', () => {
    it('should open a blank popup inside begin(), send it to the URL, and end working once the connection polls working', async () => {
      const run = start();
      run.flow.begin();
      assert.equal(page.popups.length, 1, 'opened inside the click, before any answer');
      assert.equal(page.popups[0]!.url, 'about:blank');
      assert.equal(page.popups[0]!.document.body.textContent, 'Connecting…');
      assert.equal(run.flow.state.name, 'requesting');
      await settle();
      assert.equal(page.popups[0]!.url, OAUTH_URL);
      assert.deepEqual(run.events[0], { type: 'connect-popup', detail: { url: OAUTH_URL }, state: 'authorizing' });
      const connection = allow();
      assert.equal(run.flow.state.name, 'verifying');
      assert.equal(run.flow.connectionId, 'conn_new');
      await advance(INTERVAL);
      assert.deepEqual(run.types(), ['connect-popup', 'connect-connection', 'connect-status', 'connect-success']);
      assert.deepEqual(run.entered, ['requesting', 'authorizing', 'verifying', 'working']);
      assert.deepEqual((await run.ended('connect-success')).connection, connection);
    });

    it('should poll a connection not yet working quickly at first, then every interval, until it works', async () => {
      const run = await authorizing();
      const connection = allow(sampleConnection({ id: 'conn_new', status: 'created' }));
      await advance(INTERVAL * QUICK_POLLS * 0.3 + 10);
      const quick = page.backend.count('GET /connections/conn_new');
      assert.ok(quick >= QUICK_POLLS, `${quick} quick polls`);
      await advance(INTERVAL * 3);
      assert.ok(page.backend.count('GET /connections/conn_new') <= quick + 3, 'then one poll an interval');
      connection.status = 'working';
      await advance(INTERVAL);
      await run.ended('connect-success');
    });

    it('should tell connect-popup-blocked with the URL when the browser blocks the popup, and open it on openBlocked()', async () => {
      page.blocking = true;
      const run = start();
      run.flow.begin();
      await settle();
      assert.equal(run.flow.state.name, 'blocked');
      assert.deepEqual(run.events, [{ type: 'connect-popup-blocked', detail: { url: OAUTH_URL }, state: 'blocked' }]);
      page.blocking = false;
      run.flow.openBlocked();
      assert.equal(run.flow.state.name, 'authorizing');
      assert.equal(page.popups[0]!.url, OAUTH_URL);
      allow();
      await advance(INTERVAL);
      assert.deepEqual(run.entered, ['requesting', 'blocked', 'authorizing', 'verifying', 'working']);
      await run.ended('connect-success');
    });

    it('should watch the popup opened from blocked, and sever it when it reads closed', async () => {
      page.blocking = true;
      const run = start();
      run.flow.begin();
      await advance(2 * CLOSED_CHECK);
      page.blocking = false;
      run.flow.openBlocked();
      page.popups[0]!.closed = true;
      await advance(CLOSED_CHECK);
      assert.equal(run.flow.state.name, 'severed');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should take the link way, warning the developer, when even the fallback click opens no popup', async () => {
      page.blocking = true;
      const run = start();
      run.flow.begin();
      await settle();
      run.flow.openBlocked();
      assert.deepEqual(run.flow.state, { name: 'linked', url: OAUTH_URL, reason: 'blocked' });
      assert.deepEqual(run.events.at(-1), {
        type: 'connect-link',
        detail: { url: OAUTH_URL, reason: 'blocked' },
        state: 'linked',
      });
      assert.match(run.warnings.join(), /allow-popups/);
      assert.ok(!run.warnings.join().includes(OAUTH_URL), 'the link in no warning');
      run.flow.stopWaiting();
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should cancel popup_closed at once, without connect-popup, when the popup closes before the URL came', async () => {
      const busy = { status: 503, body: { title: 'busy' } };
      page.backend.queue('POST /oauth-connect', busy, busy, busy);
      const run = start();
      run.flow.begin();
      page.popups[0]!.closed = true;
      await advance(CLOSED_CHECK);
      assert.ok(page.backend.count('POST /oauth-connect') <= 3, 'the URL has not come yet');
      assert.deepEqual(run.types(), ['connect-cancel']);
      assert.deepEqual(run.events[0]!.detail, { reason: 'popup_closed' });
      await run.ended('connect-cancel', 'popup_closed');
    });

    it('should sever a popup that reads closed after the URL, poll the list, and cancel popup_closed only after the grace', async () => {
      const run = await severed();
      assert.deepEqual(run.types(), ['connect-popup'], 'severed tells nothing');
      const lists = () => page.backend.count('GET /connections');
      await advance(GRACE - 10);
      assert.equal(run.flow.state.name, 'severed', 'still waiting before the grace ends');
      const polls = lists();
      const expected = GRACE / (SEVERED_POLL * INTERVAL);
      assert.ok(
        polls >= expected - 1 && polls <= expected + 2,
        `${polls} list reads, one every SEVERED_POLL intervals`,
      );
      await advance(20);
      assert.deepEqual(run.events.at(-1)!.detail, { reason: 'popup_closed' });
      await run.ended('connect-cancel', 'popup_closed');
    });

    it('should find through the list a connection that appeared while severed, and verify it', async () => {
      const run = await severed();
      page.backend.connections.push(sampleConnection({ id: 'conn_new', createTime: new Date().toISOString() }));
      await advance(SEVERED_POLL * INTERVAL + 10);
      assert.equal(run.flow.connectionId, 'conn_new');
      await advance(INTERVAL);
      assert.deepEqual(run.entered, ['requesting', 'authorizing', 'severed', 'verifying', 'working']);
      await run.ended('connect-success');
    });

    it('should take the own popup message while severed', async () => {
      const run = await severed();
      allow();
      await advance(INTERVAL);
      await run.ended('connect-success');
    });

    it('should end popup_closed at once on stopWaiting() while severed, and not before', async () => {
      const run = await authorizing();
      run.flow.stopWaiting();
      assert.equal(run.flow.state.name, 'authorizing', 'no effect while the popup is open');
      page.popups[0]!.closed = true;
      await advance(CLOSED_CHECK);
      run.flow.stopWaiting();
      await run.ended('connect-cancel', 'popup_closed');
    });

    it('should end authorization_failed on the own popup failure message', async () => {
      const run = await authorizing();
      page.message(page.popups[0], { eventType: 'AUTHORIZATION_FAILED', data: { error: 'access_denied' } });
      assert.equal(run.events.at(-1)!.detail.message, 'access_denied');
      await run.ended('connect-error', 'authorization_failed');
    });

    it("should ignore a success from another window of an untrusted origin, and confirm a trusted origin's claim with the backend", async () => {
      const run = await authorizing();
      page.backend.connections.push(sampleConnection({ id: 'conn_new', createTime: new Date().toISOString() }));
      page.message({}, success('conn_new'), 'https://evil.test');
      await settle();
      assert.equal(run.flow.state.name, 'authorizing');
      page.message({}, success('conn_new'));
      await advance(INTERVAL);
      assert.equal(run.flow.connectionId, 'conn_new');
      await run.ended('connect-success');
    });

    it('should end timeout when the time limit passes, saying the state it failed in', async () => {
      const run = await authorizing();
      await advance(TIMEOUT - 20);
      assert.equal(run.flow.state.name, 'authorizing');
      await advance(20);
      assert.equal((run.flow.state as { from?: string }).from, 'authorizing');
      await run.ended('connect-error', 'timeout');
    });

    it('should end bad_credentials, after connect-status, when the connection polls bad_credentials', async () => {
      const run = await authorizing();
      allow(sampleConnection({ id: 'conn_new', status: 'bad_credentials' }));
      await advance(INTERVAL);
      assert.equal(run.flow.state.name, 'bad_credentials');
      assert.deepEqual(run.types(), ['connect-popup', 'connect-connection', 'connect-status', 'connect-error']);
      assert.equal((run.events.at(-1)!.detail.connection as Connection).id, 'conn_new');
      await run.ended('connect-error', 'bad_credentials');
    });

    it('should cancel on pagehide (a reload would lose the popup)', async () => {
      const run = await authorizing();
      page.window.dispatchEvent(new Event('pagehide'));
      await run.ended('connect-cancel', 'cancelled');
    });
  });

  describe('a backend that fails', () => {
    it('should retry a 5xx and go on once the backend passes', async () => {
      page.backend.queue('POST /oauth-connect', { status: 503, body: { title: 'busy' } }, { status: 500, body: {} });
      const run = start();
      run.flow.begin();
      await advance(4 * INTERVAL);
      assert.equal(run.flow.state.name, 'authorizing');
      assert.equal(page.backend.count('POST /oauth-connect'), 3);
      assert.deepEqual(run.warnings, []);
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel');
    });

    it('should end network_error, with the last problem, once the 5xx outlasts the retries', async () => {
      const busy = { status: 503, body: { title: 'busy', status: 503 } };
      page.backend.queue('POST /oauth-connect', ...Array<Reply>(10).fill(busy));
      const run = start();
      run.flow.begin();
      await advance(5000);
      assert.equal(page.backend.count('POST /oauth-connect'), 6, 'the first try and five retries');
      assert.equal((run.events.at(-1)!.detail.problem as { status: number }).status, 503);
      await run.ended('connect-error', 'network_error');
    });

    it("should retry a proxy's HTML error page with a 5xx like any failure that may pass", async () => {
      page.backend.queue('POST /oauth-connect', { status: 502, body: '<html>Bad gateway</html>', type: 'text/html' });
      const run = start();
      run.flow.begin();
      await advance(2 * INTERVAL);
      assert.equal(run.flow.state.name, 'authorizing');
      assert.deepEqual(run.warnings, []);
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel');
    });

    it('should end http_error at once, warning the developer, on an HTML page that is not a connect backend', async () => {
      page.backend.queue('POST /oauth-connect', { status: 404, body: '<html>Not found</html>', type: 'text/html' });
      const run = start();
      run.flow.begin();
      await advance(2 * INTERVAL);
      assert.equal(page.backend.count('POST /oauth-connect'), 1, 'no retry');
      assert.match(run.warnings.join(), /not a connect backend/);
      await run.ended('connect-error', 'http_error');
    });
  });

  describe('the form way', () => {
    it('should send the credential with the body (create), open no popup, and verify the connection answered', async () => {
      const run = start();
      run.flow.submit({ apiKey: 'k1' });
      assert.equal(run.flow.state.name, 'submitting');
      await advance(INTERVAL);
      assert.deepEqual(page.backend.requests[0], {
        method: 'POST',
        path: '/connections',
        body: { provider: 'hubspot', apiKey: 'k1' },
      });
      assert.equal(page.popups.length, 0);
      assert.deepEqual(run.types(), ['connect-connection', 'connect-status', 'connect-success']);
      assert.deepEqual(run.entered, ['submitting', 'verifying', 'working']);
      await run.ended('connect-success');
    });

    it('should send an update alone, and count its status only once the connection changed since the start', async () => {
      const old = sampleConnection({ id: 'conn_1', status: 'bad_credentials', updateTime: '2026-01-02T00:00:00Z' });
      page.backend.queue('PATCH /connections/conn_1', { body: old }, { body: old });
      page.backend.connections.push({ ...old });
      page.backend.queue('GET /connections/conn_1', { body: old });
      const run = start({ request: { mode: 'update', connectionId: 'conn_1', stampAtStart: old.updateTime } });
      run.flow.submit({ apiKey: 'k2' });
      await advance(INTERVAL);
      assert.deepEqual(page.backend.requests[0], {
        method: 'PATCH',
        path: '/connections/conn_1',
        body: { apiKey: 'k2' },
      });
      assert.equal(run.flow.state.name, 'verifying', 'the old bad_credentials does not count');
      Object.assign(page.backend.connections[0]!, { status: 'working', updateTime: '2026-01-03T00:00:00Z' });
      await advance(2 * INTERVAL);
      await run.ended('connect-success');
    });
  });

  describe('cancel', () => {
    const reach: Record<string, () => Promise<ReturnType<typeof start>>> = {
      idle: async () => start(),
      requesting: async () => {
        page.backend.queue('POST /oauth-connect', { status: 503, body: {} });
        const run = start();
        run.flow.begin();
        return run;
      },
      blocked: async () => {
        page.blocking = true;
        const run = start();
        run.flow.begin();
        await settle();
        return run;
      },
      authorizing: () => authorizing(),
      severed: () => severed(),
      submitting: async () => {
        page.backend.queue('POST /connections', { status: 503, body: {} });
        const run = start();
        run.flow.submit({ apiKey: 'k' });
        return run;
      },
      verifying: async () => {
        const run = await authorizing();
        allow(sampleConnection({ id: 'conn_new', status: 'created' }));
        return run;
      },
    };
    for (const [state, get] of Object.entries(reach)) {
      it(`should end a flow ${state} with exactly one connect-cancel and nothing held`, async () => {
        const run = await get();
        assert.equal(run.flow.state.name, state);
        run.flow.cancel('cancelled');
        assert.equal(run.flow.state.name, 'cancelled');
        assert.deepEqual(run.events.at(-1)!.detail, { reason: 'cancelled' });
        await run.ended('connect-cancel', 'cancelled');
      });
    }

    it('should end a withdrawn flow (connect-start cancelled) with no event', async () => {
      const run = start();
      run.flow.withdraw();
      assert.equal(run.flow.state.name, 'cancelled');
      assert.deepEqual(run.types(), []);
      const { error } = await run.outcome;
      assert.equal(error?.code, 'cancelled');
      assert.notEqual(error?.message, '', 'the error says what happened');
      assert.equal(run.flow.held, 0);
    });

    for (const event of ['connect-popup', 'connect-popup-blocked', 'connect-connection', 'connect-status']) {
      it(`should end with the listener: a ${event} listener that cancels is the last word, with one terminal event`, async () => {
        page.blocking = event === 'connect-popup-blocked';
        const run = start();
        const flow = run.flow;
        cancelOn(run.events, flow, (told) => told.type === event);
        flow.begin();
        await settle();
        if (!page.blocking) allow();
        await advance(INTERVAL);
        assert.deepEqual(run.types().slice(-2), [event, 'connect-cancel']);
        await run.ended('connect-cancel', 'cancelled');
      });
    }
  });
});

/** A sandboxed frame's flags, as its frameElement.sandbox (a DOMTokenList) gives them. */
function sandbox(...flags: string[]) {
  const set = new Set(flags);
  return { sandbox: Object.assign(set, { contains: (t: string) => set.has(t), length: set.size }) };
}

describe('Flow, the link way', () => {
  beforeEach(() => {
    page = new FakePage();
    mock.timers.enable({ apis: ['setTimeout'] });
  });
  afterEach(() => {
    mock.timers.reset();
    page.uninstall();
  });

  /** A flow begun in a page that cannot open a window (`frame`, `userAgent`): linked once the URL came. */
  async function linked(setUp: () => void, config: Partial<FlowConfig> = {}) {
    setUp();
    page.install();
    const run = start(config);
    run.flow.begin();
    await settle();
    return run;
  }

  it('should open no window in a frame sandboxed without allow-popups, and show the link once the URL came', async () => {
    const run = await linked(() => (page.frameElement = sandbox('allow-scripts', 'allow-same-origin')));
    assert.equal(page.popups.length, 0, 'no doomed window');
    assert.deepEqual(run.flow.state, { name: 'linked', url: OAUTH_URL, reason: 'sandboxed' });
    assert.deepEqual(run.entered, ['requesting', 'linked']);
    assert.deepEqual(run.types(), ['connect-link']);
    run.flow.cancel('cancelled');
    await run.ended('connect-cancel', 'cancelled');
  });

  it('should open the popup as ever in a frame sandboxed with allow-popups', async () => {
    const run = await linked(() => (page.frameElement = sandbox('allow-scripts', 'allow-popups')));
    assert.equal(page.popups.length, 1);
    assert.equal(run.flow.state.name, 'authorizing');
    run.flow.cancel('cancelled');
    await run.ended('connect-cancel', 'cancelled');
  });

  it('should take the link way at once in an Android WebView, without a warning', async () => {
    const run = await linked(
      () =>
        (page.navigator.userAgent =
          'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0 Mobile Safari/537.36'),
    );
    assert.equal(page.popups.length, 0);
    assert.deepEqual(run.events[0]!.detail, { url: OAUTH_URL, reason: 'webview' });
    assert.deepEqual(run.warnings, []);
    run.flow.cancel('cancelled');
    await run.ended('connect-cancel', 'cancelled');
  });

  it("should find the caller's new connection by polling the list while linked, verify it and end working", async () => {
    const run = await linked(() => (page.frameElement = sandbox('allow-scripts')));
    const lists = page.backend.count('GET /connections');
    page.backend.connections.push(sampleConnection({ id: 'conn_new', createTime: new Date().toISOString() }));
    await advance(SEVERED_POLL * INTERVAL + 10);
    assert.ok(page.backend.count('GET /connections') > lists, 'the list asked while linked');
    await advance(INTERVAL);
    assert.deepEqual(run.entered, ['requesting', 'linked', 'verifying', 'working']);
    await run.ended('connect-success');
  });

  it('should wait linked with no grace, until the time limit ends it timeout', async () => {
    const run = await linked(() => (page.frameElement = sandbox('allow-scripts')));
    await advance(GRACE + 20);
    assert.equal(run.flow.state.name, 'linked', 'no closed-grace for the link way');
    await advance(TIMEOUT);
    await run.ended('connect-error', 'timeout');
  });

  it('should go no further when a connect-link listener ends it', async () => {
    page.frameElement = sandbox('allow-scripts');
    page.install();
    const run = start();
    cancelOn(run.events, run.flow, (told) => told.type === 'connect-link');
    run.flow.begin();
    await settle();
    assert.deepEqual(run.types(), ['connect-link', 'connect-cancel']);
    await run.ended('connect-cancel', 'cancelled');
  });

  it('should end cancelled on stopWaiting() while linked', async () => {
    const run = await linked(() => (page.frameElement = sandbox('allow-scripts')));
    run.flow.stopWaiting();
    await run.ended('connect-cancel', 'cancelled');
  });
});

describe('Flow: its popup, what it tells, its guards, its URL, claims and polls', () => {
  onFakePage();

  describe('its popup', () => {
    it('should open centred on the opener, at the configured size, under a window name of its flow alone', async () => {
      const first = start();
      first.flow.begin();
      // The opener's window is 1200 × 900 at (0, 0).
      assert.equal(page.popups[0]!.features, 'popup,width=500,height=600,left=350,top=150');
      first.flow.cancel('cancelled');
      const second = start({ popupWidth: 400, popupHeight: 300 });
      second.flow.begin();
      assert.equal(page.popups[1]!.features, 'popup,width=400,height=300,left=400,top=300');
      const names = page.popups.map((p) => p.name);
      for (const name of names) assert.match(name, /^connect-provider-\d+-[a-z0-9]+$/);
      assert.notEqual(names[0], names[1]);
      second.flow.cancel('cancelled');
      await second.ended('connect-cancel', 'cancelled');
    });

    it('should be blocked when open() throws (a sandboxed frame), as when the browser opens none', async () => {
      page.throwing = true;
      const run = start();
      run.flow.begin();
      await settle();
      assert.deepEqual(run.flow.state, { name: 'blocked', url: OAUTH_URL });
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should read a popup whose closed cannot be read as closed (severed)', async () => {
      const run = await authorizing();
      Object.defineProperty(page.popups[0]!, 'closed', {
        get: () => {
          throw new DOMException('cross-origin', 'SecurityError');
        },
      });
      await advance(CLOSED_CHECK);
      assert.equal(run.flow.state.name, 'severed');
      Object.defineProperty(page.popups[0]!, 'closed', { value: true });
      run.flow.stopWaiting();
      await run.ended('connect-cancel', 'popup_closed');
    });

    it('should cancel popup_closed, with no connect-popup, when the popup closed before the URL came and the watch looked', async () => {
      const run = start();
      run.flow.begin();
      page.popups[0]!.closed = true;
      await settle();
      assert.deepEqual(run.types(), ['connect-cancel']);
      assert.equal(page.popups[0]!.url, 'about:blank', 'never sent to the URL');
      await run.ended('connect-cancel', 'popup_closed');
    });

    it('should open again only from blocked: openBlocked() while authorizing opens no second window', async () => {
      const run = await authorizing();
      run.flow.openBlocked();
      assert.equal(page.popups.length, 1);
      assert.equal(run.flow.state.name, 'authorizing');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should tell connect-popup with the URL when openBlocked() opens the popup', async () => {
      page.blocking = true;
      const run = start();
      run.flow.begin();
      await settle();
      page.blocking = false;
      run.flow.openBlocked();
      assert.deepEqual(run.events.at(-1), { type: 'connect-popup', detail: { url: OAUTH_URL }, state: 'authorizing' });
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });
  });

  describe('what it tells its element', () => {
    it('should be busy while it runs and not once it ended, and give the error that ended it', async () => {
      const run = start();
      const error = () => run.flow.error;
      assert.equal(run.flow.busy, false, 'not before it begins');
      assert.equal(error(), undefined);
      run.flow.begin();
      assert.equal(run.flow.busy, true);
      assert.equal(error(), undefined);
      run.flow.cancel('cancelled');
      assert.equal(run.flow.busy, false);
      assert.equal(error()?.code, 'cancelled');
      assert.equal(error(), (await run.outcome).error);
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should end http_error 404 when its connection is gone (disconnected by another element)', async () => {
      const run = await authorizing();
      run.flow.gone();
      assert.deepEqual(run.events.at(-1)!.detail.problem, { status: 404 });
      await run.ended('connect-error', 'http_error');
    });

    it('should tell connect-connection with the connection ID it found', async () => {
      const run = await authorizing();
      allow(sampleConnection({ id: 'conn_new', status: 'created' }));
      assert.deepEqual(run.events.at(-1), {
        type: 'connect-connection',
        detail: { connectionId: 'conn_new' },
        state: 'verifying',
      });
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should tell connect-status and connect-success with the connection', async () => {
      const run = await authorizing();
      const connection = allow();
      await advance(INTERVAL);
      const [status, success] = run.events.slice(-2);
      assert.deepEqual(status!.detail, { status: 'working', connection });
      assert.deepEqual(success!.detail, { connection });
      await run.ended('connect-success');
    });
  });

  describe('once begun', () => {
    it('should do nothing on a second begin() or submit()', async () => {
      const run = start();
      run.flow.begin();
      run.flow.begin();
      run.flow.submit({ apiKey: 'k' });
      await settle();
      assert.equal(page.popups.length, 1);
      assert.equal(page.backend.count('POST /oauth-connect'), 1);
      assert.equal(page.backend.count('POST /connections'), 0);
      assert.equal(run.flow.state.name, 'authorizing');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should do nothing on a second submit() or a begin() after submit()', async () => {
      page.backend.queue('POST /connections', { status: 503, body: {} });
      const run = start();
      run.flow.submit({ apiKey: 'k' });
      run.flow.submit({ apiKey: 'k' });
      run.flow.begin();
      assert.equal(page.popups.length, 0);
      assert.equal(run.flow.state.name, 'submitting');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should not be withdrawn: withdraw() after begin() does nothing', async () => {
      const run = await authorizing();
      run.flow.withdraw();
      assert.equal(run.flow.state.name, 'authorizing');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should end bad_credentials only from verifying: fail(bad_credentials) while authorizing does nothing', async () => {
      const run = await authorizing();
      run.flow.fail('bad_credentials', 'refused');
      assert.equal(run.flow.state.name, 'authorizing');
      assert.deepEqual(run.types(), ['connect-popup']);
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    for (const state of ['requesting', 'submitting', 'severed'] as const) {
      it(`should go no further when its element ends it as it enters ${state}`, async () => {
        const run = start();
        const flow = run.flow;
        cancelOn(run.entered, flow, (name) => name === state);
        if (state === 'submitting') flow.submit({ apiKey: 'k' });
        else flow.begin();
        await settle();
        if (state === 'severed') {
          page.popups[0]!.closed = true;
          await advance(CLOSED_CHECK);
        }
        assert.equal(flow.state.name, 'cancelled');
        if (state !== 'severed') assert.deepEqual(page.backend.requests, [], 'nothing sent');
        await run.ended('connect-cancel', 'cancelled');
      });
    }
  });

  describe('the URL', () => {
    it('should ask for an update by PATCH :oauth-update of its connection', async () => {
      page.backend.connections.push(sampleConnection({ id: 'conn_1' }));
      const run = start({ request: { mode: 'update', connectionId: 'conn_1' } });
      run.flow.begin();
      await settle();
      assert.equal(page.backend.count('PATCH /connections/conn_1:oauth-update'), 1);
      assert.equal(page.popups[0]!.url, OAUTH_URL);
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should take a URL the backend answers as a bare string', async () => {
      page.backend.queue('POST /oauth-connect', { body: JSON.stringify(OAUTH_URL) });
      const run = start();
      run.flow.begin();
      await settle();
      assert.equal(page.popups[0]!.url, OAUTH_URL);
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    for (const [what, body] of [
      ['null', null],
      ['no URL', {}],
      ['an http URL', { url: 'http://platform.test/oauth' }],
    ] as const) {
      it(`should end invalid_url when the backend answers ${what}`, async () => {
        page.backend.queue('POST /oauth-connect', { body });
        const run = start();
        run.flow.begin();
        await settle();
        await run.ended('connect-error', 'invalid_url');
      });
    }
  });

  describe('a claim of success from another window of a trusted origin', () => {
    const TRUSTED = 'https://other.test';
    /** An authorizing flow that trusts TRUSTED too, and a claim from a window of it once `connection` is there. */
    async function claim(connection: Connection | undefined, existedAtStart = false) {
      if (connection && existedAtStart) page.backend.connections.push(connection);
      const run = await authorizing({ messageOrigins: `https://one.test  ${TRUSTED}` });
      if (connection && !existedAtStart) page.backend.connections.push(connection);
      page.message({}, success(connection?.id ?? 'conn_unknown'), TRUSTED);
      await advance(INTERVAL);
      return run;
    }
    const fresh = (fields: Partial<Connection> = {}) =>
      sampleConnection({ id: 'conn_new', createTime: new Date().toISOString(), status: 'working', ...fields });

    it('should be taken from an origin of messageOrigins once the backend confirms it', async () => {
      const run = await claim(fresh());
      assert.equal(run.flow.connectionId, 'conn_new');
      await run.ended('connect-success');
    });

    for (const [what, connection, existedAtStart] of [
      ['a connection the backend does not know', undefined, false],
      ['a connection the caller had, unchanged, when the flow began', fresh(), true],
      ["another provider's connection", fresh({ provider: 'salesforce' }), false],
    ] as const) {
      it(`should be ignored for ${what}`, async () => {
        const run = await claim(connection, existedAtStart);
        assert.equal(run.flow.state.name, 'authorizing');
        assert.equal(run.flow.connectionId, undefined);
        run.flow.cancel('cancelled');
        await run.ended('connect-cancel', 'cancelled');
      });
    }

    it('should be confirmed only by the connection it names: another one the backend answers does not count', async () => {
      page.backend.queue('GET /connections/conn_new', { body: fresh({ id: 'conn_other' }) });
      const run = await claim(fresh());
      assert.equal(run.flow.state.name, 'authorizing');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it("should be ignored for a connection the backend does not list as the caller's own (a coworker's)", async () => {
      const run = start({ messageOrigins: TRUSTED });
      run.flow.begin();
      await settle();
      // The caller's own connections are another of the provider's, not the one claimed.
      page.backend.queue('GET /connections', { body: [sampleConnection({ id: 'conn_mine' })] });
      page.backend.connections.push(fresh());
      page.message({}, success('conn_new'), TRUSTED);
      await advance(INTERVAL);
      assert.equal(run.flow.state.name, 'authorizing');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should be judged by the backend clock when the backend cannot list the caller connections', async () => {
      const absent = { status: 404, body: { title: 'Not Found', status: 404 } };
      page.backend.queue('GET /connections', absent, absent, absent);
      const run = await claim(fresh());
      assert.equal(run.flow.connectionId, 'conn_new');
      await run.ended('connect-success');
    });
  });

  describe('its polls', () => {
    it('should tell connect-status once per status, not on every poll', async () => {
      const run = await authorizing();
      const connection = allow(sampleConnection({ id: 'conn_new', status: 'created' }));
      await advance(INTERVAL * 4);
      assert.ok(page.backend.count('GET /connections/conn_new') >= 3);
      assert.deepEqual(run.types(), ['connect-popup', 'connect-connection', 'connect-status']);
      connection.status = 'working';
      await advance(INTERVAL);
      assert.deepEqual(run.types().slice(-2), ['connect-status', 'connect-success']);
      await run.ended('connect-success');
    });

    it('should verify nothing after a connect-connection listener ended the form way', async () => {
      const run = start();
      cancelOn(run.events, run.flow, (told) => told.type === 'connect-connection');
      run.flow.submit({ apiKey: 'k1' });
      await settle();
      assert.deepEqual(run.types(), ['connect-connection', 'connect-cancel']);
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should verify the connection the form way answered without reading it again', async () => {
      const run = start();
      run.flow.submit({ apiKey: 'k1' });
      await settle();
      assert.equal(run.flow.state.name, 'working');
      assert.equal(page.backend.count('GET /connections/conn_form'), 0);
      await run.ended('connect-success');
    });

    it('should end http_error when the form way answers no connection', async () => {
      page.backend.queue('POST /connections', { status: 201, body: {} });
      const run = start();
      run.flow.submit({ apiKey: 'k1' });
      await settle();
      await run.ended('connect-error', 'http_error');
    });

    it("should end with the backend's problem when the form way's request fails for good", async () => {
      const problem = { title: 'Bad Request', status: 400, detail: 'apiKey is required' };
      page.backend.queue('POST /connections', { status: 400, body: problem });
      const run = start();
      run.flow.submit({});
      await settle();
      assert.deepEqual(run.events.at(-1)!.detail.problem, problem);
      await run.ended('connect-error', 'http_error');
    });

    it('should end network_error once polls of its connection fail past the retries, and http_error at once on a 404', async () => {
      const run = await authorizing();
      allow(sampleConnection({ id: 'conn_new', status: 'created' }));
      const busy = { status: 503, body: { title: 'busy', status: 503 } };
      page.backend.queue('GET /connections/conn_new', ...Array<Reply>(10).fill(busy));
      await advance(60 * INTERVAL);
      assert.equal(page.backend.count('GET /connections/conn_new'), 6, 'the first try and five retries');
      await run.ended('connect-error', 'network_error');
      const gone = await authorizing();
      page.backend.connections = [];
      page.message(page.popups[1], success('conn_gone'));
      await advance(INTERVAL);
      await gone.ended('connect-error', 'http_error');
    });

    it('should end http_error when a poll of its connection answers none', async () => {
      const run = await authorizing();
      allow(sampleConnection({ id: 'conn_new', status: 'created' }));
      page.backend.queue('GET /connections/conn_new', { body: [] });
      await advance(INTERVAL);
      await run.ended('connect-error', 'http_error');
    });

    it('should poll at once when the page shows again, and not when it hides', async () => {
      const run = await authorizing();
      allow(sampleConnection({ id: 'conn_new', status: 'created' }));
      await advance(INTERVAL * 3);
      const polls = () => page.backend.count('GET /connections/conn_new');
      page.document.hidden = true;
      let before = polls();
      page.document.dispatchEvent(new Event('visibilitychange'));
      await advance(1, 1);
      assert.equal(polls(), before, 'no poll on hiding');
      before = polls();
      page.document.hidden = false;
      page.document.dispatchEvent(new Event('visibilitychange'));
      await advance(1, 1);
      assert.equal(polls(), before + 1, 'a poll as the page shows');
      run.flow.cancel('cancelled');
      await run.ended('connect-cancel', 'cancelled');
    });

    it('should not poll a backend that cannot list while severed in create mode: the grace alone ends it', async () => {
      page.backend.queue('GET /connections', { status: 404, body: { title: 'Not Found', status: 404 } });
      const run = await severed();
      const lists = page.backend.count('GET /connections');
      await advance(GRACE - 10);
      assert.ok(page.backend.count('GET /connections') <= lists + 1, 'no list read every SEVERED_POLL intervals');
      await advance(20);
      await run.ended('connect-cancel', 'popup_closed');
    });
  });
});
