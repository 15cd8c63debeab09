// Provider info, per handler: successful answers for PROVIDER_CACHE.ttlMs; a
// request while the platform is asked waits for that same call. Failures (a
// 404 for an unknown provider too) are not kept.
import type { BrowserProvider } from '../shared/provider.js';

/** How long a provider's info is served from the handler's memory, and how many providers it holds at most. */
export const PROVIDER_CACHE = { ttlMs: 10 * 60 * 1000, maxEntries: 500 } as const;

/** `fetch(name)` asks the platform; the function returned answers from memory when it can. */
export function createProviderCache(
  fetch: (name: string) => Promise<BrowserProvider>,
): (name: string) => Promise<BrowserProvider> {
  const cache = new Map<string, { at: number; info: BrowserProvider }>();
  const calls = new Map<string, Promise<BrowserProvider>>();

  async function fetchAndKeep(name: string): Promise<BrowserProvider> {
    const info = await fetch(name);
    if (cache.size >= PROVIDER_CACHE.maxEntries) {
      // The oldest entry goes (a Map iterates in insertion order).
      cache.delete(cache.keys().next().value!);
    }
    cache.set(name, { at: Date.now(), info });
    return info;
  }

  return function providerInfo(name) {
    const cached = cache.get(name);
    if (cached && Date.now() - cached.at < PROVIDER_CACHE.ttlMs) return Promise.resolve(cached.info);
    if (cached) cache.delete(name);
    let pending = calls.get(name);
    if (!pending) {
      pending = fetchAndKeep(name).finally(() => calls.delete(name));
      calls.set(name, pending);
    }
    return pending;
  };
}
