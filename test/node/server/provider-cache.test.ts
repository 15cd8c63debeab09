// The handler's memory of provider info (src/server/provider-cache.ts): at most PROVIDER_CACHE.maxEntries providers,
// the one fetched longest ago let go first, and a provider asked again after its ttl counted as fetched just now.
import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createProviderCache, PROVIDER_CACHE } from '../../../src/server/provider-cache.js';
import type { BrowserProvider } from '../../../src/shared/provider.js';

/** A cache over a platform that answers every name, and the names it was asked for. */
function counted() {
  const asked: string[] = [];
  const providerInfo = createProviderCache(async (name) => {
    asked.push(name);
    return { name, displayName: name } as BrowserProvider;
  });
  return { asked, providerInfo };
}

const { maxEntries, ttlMs } = PROVIDER_CACHE;

describe('the provider cache', () => {
  it(`holds ${maxEntries} providers at most, letting the one fetched longest ago go first`, async () => {
    const { asked, providerInfo } = counted();
    for (let i = 0; i < maxEntries; i++) await providerInfo(`p${i}`);
    await providerInfo('p0');
    assert.equal(asked.length, maxEntries, `all ${maxEntries} held`);
    await providerInfo('one-more');
    await providerInfo('p1');
    assert.equal(asked.length, maxEntries + 1, 'p1 still held');
    assert.equal((await providerInfo('p0')).name, 'p0');
    assert.deepEqual(asked.slice(maxEntries), ['one-more', 'p0'], 'p0 was let go for one-more, and asked again');
  });

  it('counts a provider asked again after its ttl as fetched just now', async () => {
    mock.timers.enable({ apis: ['Date'], now: 0 });
    try {
      const { asked, providerInfo } = counted();
      // One short of full, so that refreshing p0 lets nothing go.
      for (let i = 0; i < maxEntries - 1; i++) await providerInfo(`p${i}`);
      mock.timers.tick(ttlMs);
      await providerInfo('p0');
      assert.equal(asked.length, maxEntries, 'p0 asked again after its ttl');
      // Full after one-more; two-more then lets p1 go, not p0 (now the newest).
      await providerInfo('one-more');
      await providerInfo('two-more');
      await providerInfo('p0');
      assert.deepEqual(asked.slice(maxEntries - 1), ['p0', 'one-more', 'two-more']);
    } finally {
      mock.timers.reset();
    }
  });
});
