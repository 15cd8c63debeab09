// What the emulator's tests share: the seed's API key, a clock moved by hand, request bodies, the problem a client
// reads, and an emulator started for one test and closed whatever happens.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';

/** The seed's API key, as the header that carries it. */
export const KEY = { 'x-api-key': 'dev-api-key' };

/** A clock the tests move by hand, so verification needs no waiting. */
export function manualClock(start = Date.parse('2026-06-01T12:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

/** Nested objects {"a": {"a": ... {}}}, `depth` levels deep counting the outer one. */
export function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** An oauth-connect body for slack in the demo project, with `extra` added or replaced. */
export const connectBody = (extra: Record<string, unknown> = {}) => ({
  projectId: 'demo',
  provider: 'slack',
  groupRef: 'g',
  consumerRef: 'c',
  ...extra,
});

/** POSTs `body` as JSON with the seed's API key. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** The problem a client reads: asserts problem+json and the status, returns the body. */
export async function problemOf(response: Response, status: number, why = ''): Promise<Record<string, unknown>> {
  assert.equal(response.status, status, why);
  assert.equal(response.headers.get('content-type'), 'application/problem+json', why);
  const problem = await response.json();
  assert.equal(problem.status, status, why);
  return problem;
}

export type Started = { emulator: Emulator; info: Awaited<ReturnType<Emulator['listen']>> };

/**
 * An emulator started before the suite's tests (in the describe that calls this) and closed after them. Its
 * `emulator` and `info` are there once the tests run.
 */
export function emulatorPerSuite(options: Parameters<typeof createEmulator>[0] = {}): Started {
  const started = {} as Started;
  before(async () => {
    started.emulator = createEmulator({ verifyDelay: 0, ...options });
    started.info = await started.emulator.listen();
  });
  after(() => started.emulator.close());
  return started;
}

/** Runs `body` against a freshly started emulator, and closes it (waiting for its data file) whatever happens. */
export async function withEmulator(
  options: Parameters<typeof createEmulator>[0],
  body: (e: Started) => Promise<void>,
): Promise<void> {
  const emulator = createEmulator({ verifyDelay: 0, ...options });
  const info = await emulator.listen();
  try {
    await body({ emulator, info });
  } finally {
    await emulator.close();
  }
}

/** What a call of the emulator's API may carry: a body (sent as JSON, and then a POST unless `method` says), extra headers, and the search API instead of the main one. */
export interface ApiInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  search?: boolean;
}

/**
 * Calls the emulator's API with the seed's key; `at` gives the addresses once the emulator listens, `via` the fetch
 * to call through (one that checks every answer against openapi.yaml, say). An absolute URL is called as it is.
 */
export function emulatorApi(
  at: () => { baseUrl: string; searchUrl: string },
  via: (url: string, init: RequestInit) => Promise<Response> = fetch,
) {
  return (path: string, init: ApiInit = {}) =>
    via(`${path.startsWith('http') ? '' : init.search ? at().searchUrl : at().baseUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...KEY,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
}

/** oauth-connect in the demo project for consumer `c` through `api` (see emulatorApi): asserts a 200, returns the consent URL. */
export function consentUrlVia(api: ReturnType<typeof emulatorApi>) {
  return async (body: Record<string, unknown>): Promise<string> => {
    const response = await api('/oauth-connect', { body: { projectId: 'demo', consumerRef: 'c', ...body } });
    assert.equal(response.status, 200, JSON.stringify(body));
    return response.json();
  };
}

/** A connection of the demo project through `api`, as its JSON (`query` such as `?includeCreds=true`). */
export function connectionVia(api: ReturnType<typeof emulatorApi>) {
  return async (id: string, query = '') => (await api(`/projects/demo/connections/${id}${query}`)).json();
}
