// GET {endpoint}/integrations: which providers the project's integrations name, each once, in the platform's order,
// only those the handler offers, and no more than INTEGRATIONS_LIMIT.providers of them, so a platform that answers
// 100,000 integrations costs no more provider calls than one that answers 100.
import { isRecord } from '../shared/json.js';
import { isPlainProviderName } from './input.js';

/** How many providers the integrations route answers (and asks the platform about) at most. */
export const INTEGRATIONS_LIMIT = { providers: 100 } as const;

/**
 * The providers named by the platform's list of integrations: each once, in the list's order, only plain provider
 * names (an item without one is passed over), only the allow-listed ones when there is an allow-list, the first
 * `max` at most (the rest of the list is not read).
 */
export function integrationProviders(
  integrations: readonly unknown[],
  allowed: ReadonlySet<string> | undefined,
  max: number = INTEGRATIONS_LIMIT.providers,
): string[] {
  const names = new Set<string>();
  for (const item of integrations) {
    if (names.size >= max) break;
    const provider = isRecord(item) && Object.prototype.hasOwnProperty.call(item, 'provider') ? item.provider : null;
    if (typeof provider !== 'string' || !isPlainProviderName(provider)) continue;
    if (allowed && !allowed.has(provider)) continue;
    names.add(provider);
  }
  return [...names];
}
