// Every user-facing string of <connect-integrations> beyond its rows' (ConnectStrings), English by default.
/** The list's own texts; `strings` also carries the rows' (ConnectStrings). */
export interface IntegrationsStrings {
  /** The search input's label. */
  search: string;
  /** Announced as the user types: how many rows match. */
  matches: string;
  /** No provider to show. */
  empty: string;
  /** The list could not be read. */
  loadFailed: string;
  /** The button that reads it again. */
  retry: string;
}

/** The list's built-in English, as written (checked against every pack's type, src/element/locales.ts). */
export const INTEGRATIONS_ENGLISH = {
  search: 'Search integrations',
  matches: '{count} of {total} integrations',
  empty: 'There are no integrations to connect.',
  loadFailed: 'The integrations could not be loaded.',
  retry: 'Try again',
} as const satisfies IntegrationsStrings;

export const DEFAULT_INTEGRATIONS_STRINGS: IntegrationsStrings = INTEGRATIONS_ENGLISH;
