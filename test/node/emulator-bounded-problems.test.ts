// The emulator caps what it reports (issue #23): a validation failure lists its first 20 issues, with a bounded
// detail, name and value each, and stops validating early on a large body; so no request of any shape makes an
// answer more than a small multiple of its own size (a 1 MiB search of empty filters once answered 175 MB after
// 25 s, holding every other request).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator, type ListenInfo } from '../../src/emulator/index.js';
import { LIMITS } from '../../src/emulator/limits.js';
import { contractFetch, type ContractFetch } from './helpers/contract.js';

const KEY = { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' };
const MiB = 1024 * 1024;

/** A JSON array text of copies of `item`, `prefix`ed and `suffix`ed, just under `size` bytes. */
function filled(prefix: string, item: string, suffix: string, size = MiB - 64): string {
  const count = Math.floor((size - prefix.length - suffix.length) / (item.length + 1));
  return prefix + Array(count).fill(item).join(',') + suffix;
}

describe('emulator: bounded problems', () => {
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
  const post = (url: string, body: string) => contract.fetch(url, { method: 'POST', headers: KEY, body });

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
