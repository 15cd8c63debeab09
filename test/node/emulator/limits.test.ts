// Bounds on what a request may send and store (body size, JSON depth, refs, metadata, search filters), and on the
// problems that refuse it (their issues' names and values cut or left out at exact bounds); and jsonFits, which says
// whether a value's JSON text fits in N characters without writing it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { jsonFits, limitIssues, LIMITS, storedBytesBound } from '../../../src/emulator/limits.js';
import { CREDENTIALS, credentialSuite } from '../helpers/credential-connections.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';
import { decide } from '../helpers/consent.js';
import {
  connectBody,
  emulatorApi,
  emulatorPerSuite,
  KEY,
  nested,
  post,
  problemOf,
  withEmulator,
} from '../helpers/emulator.js';
import { streamUntilAnswered } from '../helpers/http-requests.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const JSON_KEY = { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' };
const MiB = 1024 * 1024;

/** A JSON array text of copies of `item`, `prefix`ed and `suffix`ed, just under `size` bytes. */
function filled(prefix: string, item: string, suffix: string, size = MiB - 64): string {
  const count = Math.floor((size - prefix.length - suffix.length) / (item.length + 1));
  return prefix + Array(count).fill(item).join(',') + suffix;
}

describe('emulator problems stay small whatever the request', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let contract: ContractFetch;
  before(async () => {
    emulator = createEmulator();
    info = await emulator.listen();
    contract = contractFetch();
  });
  after(async () => {
    await emulator.close();
    assert.deepEqual(contract.violations, []);
  });

  const search = () => `${info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`;
  const post = (url: string, body: string) => contract.fetch(url, { method: 'POST', headers: JSON_KEY, body });

  it('answers a 1 MiB search of empty filters with a problem under 16 KB, soon', async () => {
    const body = filled('{"objectName":"contact","fieldFilters":[', '{}', ']}');
    assert.ok(body.length > MiB - 100);
    const started = performance.now();
    const response = await post(search(), body);
    const text = await response.text();
    assert.equal(response.status, 400);
    assert.ok(text.length < 16 * 1024, `${text.length} bytes`);
    assert.ok(performance.now() - started < 5000, 'it stops early');
    const problem = JSON.parse(text);
    assert.ok(problem.issues.length >= 1 && problem.issues.length <= 20);
    assert.match(problem.issues[0].name, /^fieldFilters\[\d+\]/);
  });

  it('lists the first 20 issues of a small body and says how many there are', async () => {
    const body = JSON.stringify({ objectName: 'contact', fieldFilters: Array(30).fill({ operator: 'eq' }) });
    const response = await post(search(), body);
    assert.equal(response.status, 400);
    const problem = await response.json();
    assert.equal(problem.issues.length, LIMITS.problemIssues);
    assert.equal(LIMITS.problemIssues, 20);
    assert.deepEqual(
      problem.issues.slice(0, 2).map((i: { name: string }) => i.name),
      ['fieldFilters[0].fieldName', 'fieldFilters[0].value'],
    );
    assert.match(problem.detail, /^60 problems, the first 20: /);
  });

  it('caps the issues at 20 when the query and the body both have problems, the query first', async () => {
    const body = JSON.stringify({ objectName: 'contact', fieldFilters: Array(30).fill({ operator: 'eq' }) });
    const response = await post(`${info.searchUrl}/projects/demo/integrations/int_demo`, body);
    assert.equal(response.status, 400);
    const problem = await response.json();
    assert.equal(problem.issues.length, LIMITS.problemIssues);
    assert.deepEqual(
      problem.issues.slice(0, 2).map((i: { in: string; name: string }) => [i.in, i.name]),
      [
        ['query', 'groupRef'],
        ['body', 'fieldFilters[0].fieldName'],
      ],
    );
    assert.match(problem.detail, /^61 problems, the first 20: groupRef is required; /);
  });

  it('checks every problem of a body up to 64 KB as JSON, and a larger one only up to its first, saying so', async () => {
    assert.equal(LIMITS.allErrorsBytes, 64 * 1024);
    // Six problems (three fields missing in each of two filters); an unknown member pads the body to its size.
    const withPad = (pad: number) =>
      JSON.stringify({ objectName: 'contact', fieldFilters: [{}, {}], pad: 'x'.repeat(pad) });
    const exact = withPad(LIMITS.allErrorsBytes - withPad(0).length);
    assert.equal(exact.length, LIMITS.allErrorsBytes);
    const small = await post(search(), exact);
    assert.equal(small.status, 400);
    assert.match((await small.json()).detail, /^6 problems: fieldFilters\[0\]\.fieldName is required; /);
    const large = await post(search(), withPad(LIMITS.allErrorsBytes - withPad(0).length + 1));
    assert.equal(large.status, 400);
    const first = 'fieldFilters[0].fieldName is required';
    const problem = await large.json();
    assert.equal(problem.detail, `the body is checked up to its first problem, being large: ${first}`);
    assert.deepEqual(problem.issues, [
      { type: 'about:blank', detail: first, in: 'body', name: 'fieldFilters[0].fieldName' },
    ]);
  });

  it('bounds what an issue echoes: long names, long values and whole bodies', async () => {
    const longKey = 'k'.repeat(200_000);
    const cases: Array<[string, string, string]> = [
      ['a long unknown key', search(), `{"objectName":"contact","fieldFilters":[{"${longKey}":1}]}`],
      ['a long value of the wrong type', `${info.baseUrl}/projects`, JSON.stringify({ name: 'x'.repeat(MiB - 200) })],
      ['a whole body of the wrong type', `${info.baseUrl}/oauth-connect`, filled('[', '{}', ']')],
      ['an unknown object name', search(), JSON.stringify({ objectName: 'o'.repeat(MiB - 100), fieldFilters: [] })],
    ];
    for (const [why, url, body] of cases) {
      const response = await post(url, body);
      const text = await response.text();
      assert.equal(response.status, 400, why);
      assert.ok(text.length < 16 * 1024, `${why}: ${text.length} bytes`);
      const problem = JSON.parse(text);
      assert.ok(problem.detail.length <= LIMITS.problemDetailChars, why);
      for (const issue of problem.issues ?? []) {
        assert.ok(JSON.stringify(issue).length < 2048, `${why}: ${JSON.stringify(issue).slice(0, 300)}`);
      }
    }
  });

  it("bounds a problem an operation raises itself, and a long path's 404, in the one error handler", async () => {
    // Refused by the operation, past the schema (at most 32 inputs, names of 128 characters): an issue for each of
    // the 2 inputs missing and the 32 unknown ones, 34 in all, each naming its input at length.
    const customAuth = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`${i}-${'n'.repeat(120)}`, 'v']));
    const refused = await post(
      `${info.baseUrl}/projects/demo/connections:generate`,
      JSON.stringify({ provider: 'clariCopilot', groupRef: 'bounded', consumerRef: 'bounded', customAuth }),
    );
    assert.equal(refused.status, 400);
    const problem = await refused.json();
    assert.equal(problem.issues.length, LIMITS.problemIssues);
    assert.equal(problem.detail.length, LIMITS.problemDetailChars);
    assert.match(problem.detail, /^34 problems: customAuth\.apiKey is required: .*…$/);
    const lost = await fetch(`${info.baseUrl}/${'p'.repeat(10_000)}`, { headers: JSON_KEY });
    assert.equal(lost.status, 404);
    const detail = ((await lost.json()) as { detail: string }).detail;
    assert.equal(detail.length, LIMITS.problemDetailChars);
    assert.match(detail, /^no such route: GET \/v1\/p+…$/);
  });

  it('answers any request with at most a small multiple of its size (8x, or 16 KB)', async () => {
    const shapes: Array<[string, string, string]> = [
      ['filters of numbers', search(), filled('{"objectName":"contact","fieldFilters":[', '1', ']}')],
      ['filters of nulls', search(), filled('{"objectName":"contact","fieldFilters":[', 'null', ']}')],
      [
        'bad operators',
        search(),
        filled('{"objectName":"contact","fieldFilters":[', '{"fieldName":"a","operator":"ne","value":"b"}', ']}'),
      ],
      ['many unknown keys', search(), `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":1`).join(',')}}`],
      ['a project of wrong types', `${info.baseUrl}/projects`, JSON.stringify({ name: 1, appName: [], orgId: {} })],
      ['a deep body', `${info.baseUrl}/projects`, '['.repeat(30) + ']'.repeat(30)],
      [
        'routes of wrong types',
        `${info.baseUrl}/projects/demo/notification-event-topic-routes`,
        filled('[', '{"a":1}', ']'),
      ],
    ];
    for (const [why, url, body] of shapes) {
      const response = await post(url, body);
      const text = await response.text();
      assert.ok(text.length <= Math.max(16 * 1024, 8 * body.length), `${why}: ${body.length} -> ${text.length}`);
    }
  });
});

describe('emulator inputs within bounds', () => {
  describe('bounded inputs', () => {
    it('refuses providerMetadata nested deeper than the limit, or larger, with a 400 issue', async () => {
      await withEmulator({}, async (e) => {
        const ok = await post(
          `${e.info.baseUrl}/oauth-connect`,
          connectBody({ providerMetadata: nested(LIMITS.metadataDepth) }),
        );
        assert.equal(ok.status, 200);
        for (const metadata of [nested(LIMITS.metadataDepth + 1), { blob: 'x'.repeat(LIMITS.metadataBytes) }]) {
          const response = await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ providerMetadata: metadata }));
          assert.equal(response.status, 400);
          const problem = await response.json();
          assert.deepEqual(
            problem.issues.map((i: { name: string }) => i.name),
            ['providerMetadata'],
          );
        }
      });
    });

    it('refuses any JSON body nested thousands deep with a 400, and stores nothing of it', async () => {
      const file = join(dir, 'deep.json');
      await withEmulator({ dataFile: file }, async (e) => {
        const size = statSync(file).size;
        const deep = '{"x":' + '['.repeat(4100) + ']'.repeat(4100) + '}';
        const body = JSON.stringify(connectBody()).replace(/^\{/, `{"providerMetadata":${deep},`);
        const response = await fetch(`${e.info.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body,
        });
        assert.equal(response.status, 400);
        const extra = await fetch(`${e.info.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify(connectBody()).replace(/^\{/, `{"unrelated":${deep},`),
        });
        assert.equal(extra.status, 400, 'also in a property the operation does not store');
        await e.emulator.flush();
        assert.equal(statSync(file).size, size);
      });
    });

    it('answers 400, not 500, to a search for an object named like a prototype member', async () => {
      await withEmulator({}, async (e) => {
        for (const objectName of ['constructor', '__proto__', 'toString']) {
          const response = await post(`${e.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
            objectName,
            fieldFilters: [],
          });
          assert.equal(response.status, 400, objectName);
        }
      });
    });
  });

  describe('body limits, enforced while reading', () => {
    it('answers 413 to an endless consent form before it ends', async () => {
      await withEmulator({}, async (e) => {
        const url = await (await post(`${e.info.baseUrl}/oauth-connect`, connectBody())).json();
        const { status, sent } = await streamUntilAnswered(
          url,
          'POST',
          { 'content-type': 'application/x-www-form-urlencoded' },
          64 * 1024 * 1024,
        );
        assert.equal(status, 413);
        assert.ok(sent < 64 * 1024 * 1024, `the answer came after ${sent} bytes, before the body ended`);
        assert.equal((await decide(url, 'allow')).status, 303, 'the session is untouched');
      });
    });

    it('answers 413 to an endless JSON body before it ends', async () => {
      await withEmulator({}, async (e) => {
        const { status, sent } = await streamUntilAnswered(
          `${e.info.baseUrl}/oauth-connect`,
          'POST',
          { ...KEY, 'content-type': 'application/json' },
          64 * 1024 * 1024,
        );
        assert.equal(status, 413);
        assert.ok(sent < 64 * 1024 * 1024);
      });
    });
  });
});

describe('emulator bounds, exactly', () => {
  const suite = emulatorPerSuite();

  const api = emulatorApi(() => suite.info);

  const postTo = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${suite.info.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  describe('bounds on what a request may store', () => {
    it('takes a JSON body nested exactly as deep as the limit, and refuses one level more', async () => {
      const ok = await postTo('/oauth-connect', connectBody({ deep: nested(LIMITS.jsonDepth - 1) }));
      assert.equal(ok.status, 200);
      const deeper = await postTo('/oauth-connect', connectBody({ deep: nested(LIMITS.jsonDepth) }));
      assert.equal(deeper.status, 400);
      const problem = await deeper.json();
      assert.match(problem.detail, new RegExp(`deeper than ${LIMITS.jsonDepth}`));
    });

    it('takes each string field of oauth-connect at the length limit, and names the one over it', async () => {
      const fields = [
        'projectId',
        'provider',
        'groupRef',
        'consumerRef',
        'groupName',
        'consumerName',
        'providerWorkspaceRef',
        'providerAppId',
      ];
      for (const name of fields) {
        const over = await postTo('/oauth-connect', connectBody({ [name]: 'x'.repeat(LIMITS.refLength + 1) }));
        assert.equal(over.status, 400, name);
        const problem = await over.json();
        assert.deepEqual(
          problem.issues.map((i: { name: string; in: string }) => [i.in, i.name]),
          [['body', name]],
          name,
        );
        assert.match(problem.issues[0].detail, new RegExp(`longer than ${LIMITS.refLength}`), name);
      }
      const alias = await postTo('/oauth-connect', {
        ...connectBody({ projectId: undefined }),
        projectIdOrName: 'x'.repeat(LIMITS.refLength + 1),
      });
      assert.equal(alias.status, 400);
      const aliasIssues = (await alias.json()).issues.map((i: { name: string }) => i.name).sort();
      assert.deepEqual(aliasIssues, ['projectId', 'projectIdOrName']);
      const atLimit = await postTo(
        '/oauth-connect',
        connectBody({ groupRef: 'g'.repeat(LIMITS.refLength), groupName: 'n'.repeat(LIMITS.refLength) }),
      );
      assert.equal(atLimit.status, 200);
    });

    it('takes nulls anywhere in a JSON body', async () => {
      const response = await postTo(
        '/oauth-connect',
        connectBody({ providerMetadata: { note: null, list: [null, { a: null }] } }),
      );
      assert.equal(response.status, 200);
    });

    it('takes providerMetadata of exactly the byte limit as JSON, counting UTF-8 bytes', async () => {
      // {"blob":"…"} is 11 bytes around the string.
      const exact = await postTo(
        '/oauth-connect',
        connectBody({ providerMetadata: { blob: 'x'.repeat(LIMITS.metadataBytes - 11) } }),
      );
      assert.equal(exact.status, 200);
      const oneMore = await postTo(
        '/oauth-connect',
        connectBody({ providerMetadata: { blob: 'x'.repeat(LIMITS.metadataBytes - 10) } }),
      );
      assert.equal(oneMore.status, 400);
      const wide = await postTo(
        '/oauth-connect',
        connectBody({ providerMetadata: { blob: 'é'.repeat((LIMITS.metadataBytes - 10) / 2) } }),
      );
      assert.equal(wide.status, 400, 'two bytes per é: over the limit in bytes though not in characters');
      assert.deepEqual(
        (await wide.json()).issues.map((i: { in: string; name: string }) => [i.in, i.name]),
        [['body', 'providerMetadata']],
      );
      const deep = await postTo('/oauth-connect', connectBody({ providerMetadata: nested(LIMITS.metadataDepth + 1) }));
      assert.deepEqual(
        (await deep.json()).issues.map((i: { in: string; name: string }) => [i.in, i.name]),
        [['body', 'providerMetadata']],
      );
    });

    it('takes a search with exactly the most filters, and refuses one more', async () => {
      const search = (count: number) =>
        fetch(`${suite.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({
            objectName: 'contact',
            fieldFilters: Array.from({ length: count }, () => ({ fieldName: 'id', operator: 'eq', value: '101' })),
          }),
        });
      const most = await search(LIMITS.searchFilters);
      assert.equal(most.status, 200);
      assert.equal((await most.json()).result.length, 1);
      const over = await search(LIMITS.searchFilters + 1);
      assert.equal(over.status, 400);
      assert.deepEqual(
        (await over.json()).issues.map((i: { in: string; name: string }) => [i.in, i.name]),
        [['body', 'fieldFilters']],
      );
      const filters = Array.from({ length: LIMITS.searchFilters + 1 }, () => ({
        fieldName: 'id',
        operator: 'eq',
        value: '1',
      }));
      const notSearch = await postTo('/oauth-connect', connectBody({ fieldFilters: filters }));
      assert.equal(notSearch.status, 200, 'the bound is on searches, not on a field of that name elsewhere');
      const longRefElsewhere = await fetch(
        `${suite.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`,
        {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ objectName: 'contact', fieldFilters: [], groupRef: 'g'.repeat(LIMITS.refLength + 1) }),
        },
      );
      assert.equal(longRefElsewhere.status, 200, "the length bound is oauth-connect's, not a search's");
    });
  });

  describe('the issues of a problem, bounded exactly', () => {
    type Issue = { detail: string; in: string; name: string; value?: unknown };

    /** The one issue of a project otherwise valid but for `extra`'s unknown members. */
    const issueOf = async (extra: Record<string, unknown>): Promise<Issue> => {
      const response = await api('/projects', { body: { appName: 'App', name: 'ab', orgId: 'org_demo', ...extra } });
      const problem = await problemOf(response, 400);
      const issues = problem.issues as Issue[];
      assert.equal(issues.length, 1, JSON.stringify(problem));
      return issues[0];
    };

    /** `make(n)` for the least n whose JSON is at least `chars` long. */
    const sized = (make: (n: number) => unknown, chars: number) => {
      let n = 0;
      while (JSON.stringify(make(n)).length < chars) n++;
      return n;
    };

    it('echoes a string value of up to 200 characters whole, and cuts a longer one to 200 ending with …', async () => {
      assert.equal(LIMITS.issueValueChars, 200);
      const whole = 'v'.repeat(LIMITS.issueValueChars);
      assert.equal((await issueOf({ extra: whole })).value, whole);
      const cut = await issueOf({ extra: `${whole}w` });
      assert.equal(cut.value, `${'v'.repeat(LIMITS.issueValueChars - 1)}…`);
    });

    it('names a field of up to 300 characters whole, and cuts a longer name to 300 ending with …', async () => {
      assert.equal(LIMITS.issueTextChars, 300);
      const key = 'k'.repeat(LIMITS.issueTextChars);
      const whole = await issueOf({ [key]: 1 });
      assert.equal(whole.name, key);
      assert.equal(whole.value, 1);
      const cut = await issueOf({ [`${key}l`]: 1 });
      assert.equal(cut.name, `${'k'.repeat(LIMITS.issueTextChars - 1)}…`);
      assert.equal(cut.detail, `${'k'.repeat(LIMITS.issueTextChars - 1)}…`, 'the detail, which starts with the name');
    });

    it('echoes an array or object value of up to 200 characters as JSON, and leaves a larger one out', async () => {
      const shapes: Array<[string, (n: number) => unknown]> = [
        ['an array of one string', (n) => ['x'.repeat(n)]],
        ['an object of one string', (n) => ({ k: 'x'.repeat(n) })],
        ['several members', (n) => ['a', 1, { x: true, y: null }, [], {}, 'x'.repeat(n)]],
        ['nested members', (n) => ({ a: [1, { b: [null, false] }], c: { d: 'x'.repeat(n) } })],
        ['quotes and backslashes, escaped', (n) => ['"\\'.repeat(n)]],
        ['control characters, escaped', (n) => ({ k: '\u0001'.repeat(n) })],
        ['an escaped key', (n) => ({ ['"'.repeat(n)]: 1 })],
        ['non-ASCII, one character each', (n) => ['é€'.repeat(n)]],
      ];
      for (const [why, make] of shapes) {
        const n = sized(make, LIMITS.issueValueChars);
        assert.equal(JSON.stringify(make(n)).length, LIMITS.issueValueChars, why);
        assert.deepEqual((await issueOf({ extra: make(n) })).value, make(n), why);
        const over = await issueOf({ extra: make(n + 1) });
        assert.equal('value' in over, false, `${why}: left out`);
        assert.equal(over.name, 'extra', why);
      }
    });
  });

  describe('limits.ts: what a request may store', () => {
    const connectBody = (extra: Record<string, unknown>) => ({
      projectId: 'demo',
      provider: 'slack',
      groupRef: 'g',
      consumerRef: 'c',
      ...extra,
    });

    it('names the bound a providerMetadata or a search passes, in the detail and the issue', async () => {
      const cases: Array<[string, Promise<Response>, string, string]> = [
        [
          'metadata too deep',
          api('/oauth-connect', { body: connectBody({ providerMetadata: nested(LIMITS.metadataDepth + 1) }) }),
          'providerMetadata',
          'providerMetadata is nested deeper than 8 levels',
        ],
        [
          'metadata too large',
          api('/oauth-connect', {
            body: connectBody({ providerMetadata: { blob: 'x'.repeat(LIMITS.metadataBytes) } }),
          }),
          'providerMetadata',
          'providerMetadata is larger than 4096 bytes as JSON',
        ],
        [
          'too many filters',
          fetch(`${suite.info.searchUrl}/projects/demo/integrations/int_demo?groupRef=acme`, {
            method: 'POST',
            headers: { ...KEY, 'content-type': 'application/json' },
            body: JSON.stringify({
              objectName: 'contact',
              fieldFilters: Array.from({ length: LIMITS.searchFilters + 1 }, () => ({
                fieldName: 'id',
                operator: 'eq',
                value: '1',
              })),
            }),
          }),
          'fieldFilters',
          'fieldFilters has more than 64 filters',
        ],
      ];
      for (const [why, response, name, detail] of cases) {
        const problem = await problemOf(await response, 400, why);
        assert.equal(problem.type, 'urn:connect-provider:problem:validation', why);
        assert.equal(problem.title, 'Invalid request', why);
        assert.equal(problem.detail, detail, why);
        assert.deepEqual(problem.issues, [{ detail, in: 'body', name }], why);
      }
    });
  });
});

describe('limits.ts: providerMetadata bounded wherever a request carries it', () => {
  const { generate, update } = credentialSuite();
  const tooDeep = nested(LIMITS.metadataDepth + 1);
  const tooLarge = { blob: 'x'.repeat(LIMITS.metadataBytes) };

  it('refuses it too deep or too large in generate connection, naming providerMetadata', async () => {
    for (const [metadata, detail] of [
      [tooDeep, 'providerMetadata is nested deeper than 8 levels'],
      [tooLarge, 'providerMetadata is larger than 4096 bytes as JSON'],
    ] as const) {
      const response = await generate({
        provider: 'apollo',
        groupRef: 'g',
        ...CREDENTIALS.apollo,
        providerMetadata: metadata,
      });
      const problem = await problemOf(response, 400, detail);
      assert.deepEqual(problem.issues, [{ detail, in: 'body', name: 'providerMetadata' }]);
    }
  });

  it('refuses it too deep or too large in update connection, naming connection.providerMetadata', async () => {
    const made = await generate({ provider: 'apollo', groupRef: 'bounded', ...CREDENTIALS.apollo });
    assert.equal(made.status, 201);
    const { id } = await made.json();
    for (const [metadata, detail] of [
      [tooDeep, 'connection.providerMetadata is nested deeper than 8 levels'],
      [tooLarge, 'connection.providerMetadata is larger than 4096 bytes as JSON'],
    ] as const) {
      const response = await update(id, {
        updateMask: ['providerMetadata'],
        connection: { providerMetadata: metadata },
      });
      const problem = await problemOf(response, 400, detail);
      assert.deepEqual(problem.issues, [{ detail, in: 'body', name: 'connection.providerMetadata' }]);
    }
  });
});

describe('limits.ts: the room a body takes, and bodies with nothing to bound', () => {
  it('takes room for at least what storing a small body adds to the data file, its IDs, times and tokens included', async () => {
    const file = join(dir, 'room.json');
    const emulator = createEmulator({ dataFile: file, verifyDelay: 0 });
    try {
      const bodies: Array<[string, Record<string, unknown>]> = [
        [
          '/v1/projects/demo/connections:generate',
          { provider: 'apollo', groupRef: 'g', consumerRef: 'c', apiKey: 'k' },
        ],
        ['/v1/oauth-connect', { projectId: 'demo', provider: 'slack', groupRef: 'g', consumerRef: 'c' }],
      ];
      for (const [path, body] of bodies) {
        await emulator.flush();
        const before = statSync(file).size;
        const response = await emulator.handle(
          new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: JSON_KEY, body: JSON.stringify(body) }),
        );
        assert.ok(response.ok, `${path}: ${response.status}`);
        await emulator.flush();
        const added = statSync(file).size - before;
        assert.ok(
          added <= storedBytesBound(body),
          `${path}: ${added} bytes added, room taken ${storedBytesBound(body)}`,
        );
      }
    } finally {
      await emulator.close();
    }
  });

  it('finds nothing to refuse in no body, or a body that is no object', () => {
    for (const body of [undefined, null, 'text', 7]) {
      assert.deepEqual(limitIssues('oauthConnect', body), [], String(body));
      assert.deepEqual(limitIssues('updateConnection', body), [], String(body));
    }
  });
});

describe('jsonFits: whether a JSON value is at most N characters as JSON, without writing it', () => {
  const json = fc.oneof(fc.jsonValue(), fc.jsonValue({ stringUnit: 'binary' }));

  it("answers as JSON.stringify's length does, at the bound and one under it", () => {
    fc.assert(
      fc.property(json, fc.integer({ min: -1, max: 300 }), (value, max) => {
        const length = JSON.stringify(value).length;
        assert.equal(jsonFits(value, length), true);
        assert.equal(jsonFits(value, length - 1), false);
        assert.equal(jsonFits(value, max), length <= max);
      }),
      { seed: 20260601, numRuns: 400 },
    );
  });

  it('counts every character JSON writes: quotes, commas, colons, keys and escapes', () => {
    const values: unknown[] = [
      null,
      true,
      -12.5e-7,
      '',
      'plain',
      'é€😀',
      'a "quoted" \\ path',
      '\n\t\u0000\u001f',
      '\ud800 lone',
      [],
      {},
      [[]],
      [1, 2, 3],
      { a: 1 },
      { a: 1, bb: [true, null], '"k"': { '\n': '' } },
      [{}, [], [{}], { x: [] }],
    ];
    for (const value of values) {
      const length = JSON.stringify(value).length;
      assert.equal(jsonFits(value, length), true, JSON.stringify(value));
      assert.equal(jsonFits(value, length - 1), false, JSON.stringify(value));
    }
  });

  it('stops reading a value as soon as it is past the bound, never reaching the members after it', () => {
    const read: string[] = [];
    const list: unknown[] = Array(1000).fill(0);
    Object.defineProperty(list, 999, { enumerable: true, get: () => (read.push('list[999]'), 0) });
    assert.equal(jsonFits(list, 1000), false, 'its commas alone are past the bound');
    const record = {
      ['k'.repeat(20)]: 0,
      get second() {
        return (read.push('second'), 0);
      },
    };
    assert.equal(jsonFits(record, 20), false, "past the bound at its first member's key");
    assert.deepEqual(read, []);
    assert.equal(jsonFits(record, 100), true);
    assert.deepEqual(read, ['second'], 'read when within the bound');
  });

  it("counts an object's own members only, as JSON.stringify does, not its prototype's", () => {
    const value = Object.assign(Object.create({ inherited: 'i'.repeat(100) }), { own: 'o' });
    assert.equal(JSON.stringify(value), '{"own":"o"}');
    assert.equal(jsonFits(value, 11), true);
    assert.equal(jsonFits(value, 10), false);
    assert.equal(JSON.stringify({ list: [value] }).length, 22);
    assert.equal(jsonFits({ list: [value] }, 22), true, 'inside an array too');
  });
});
