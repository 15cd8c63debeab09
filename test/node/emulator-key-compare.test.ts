// The API key is compared in constant time (SHA-256 digests of both, compared
// with timingSafeEqual, so neither content nor length decides how long it
// takes). Timing itself is not unit-tested: these tests check behaviour only.
// The right key is accepted; a wrong key of the same length, a shorter, a
// longer and an empty one all get the same 401 problem.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator } from '../../src/emulator/index.js';

const KEY = 'k3y-of-twenty-chars!';

async function getProject(key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const emulator = createEmulator({ apiKey: KEY });
  const response = await emulator.handle(
    new Request('http://127.0.0.1/v1/projects/demo', { headers: { 'x-api-key': key } }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe('emulator: API key comparison', () => {
  it('accepts the right key', async () => {
    assert.equal((await getProject(KEY)).status, 200);
  });

  for (const [name, key] of [
    ['same length, last character differs', `${KEY.slice(0, -1)}?`],
    ['same length, first character differs', `?${KEY.slice(1)}`],
    ['a prefix of the key', KEY.slice(0, 5)],
    ['the key and more', `${KEY}x`],
    ['the key twice', KEY + KEY],
    ['empty', ''],
    ['a multi-byte key of the same character count', `${KEY.slice(0, -1)}é`],
  ]) {
    it(`refuses a wrong key (${name}) with the same 401 problem`, async () => {
      const { status, body } = await getProject(key);
      assert.equal(status, 401);
      assert.equal(body.status, 401);
      assert.equal(body.detail, 'the X-Api-Key header does not carry a valid API key');
    });
  }
});
