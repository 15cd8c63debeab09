// Every user-facing string of <connect-integrations> beyond its rows' (ConnectStrings), English by default.
/** The list's own texts; `strings` also carries the rows' (ConnectStrings). */
export interface IntegrationsStrings {
  /** The search input's label. */
  search: string;
  /** Announced as the user types: how many rows match. */
  matches: string;
  /** Nothing matches the search (`{query}`: what the user typed); a Clear button follows. */
  noMatch: string;
  /** The button that empties the search. */
  clear: string;
  /** No provider to show. */
  empty: string;
  /** The list could not be read. */
  loadFailed: string;
  /** The list's route is missing or refused (403, 404, a page that is not the connect backend's). */
  notSetUp: string;
  /** The list was refused 401: the user is not signed in. */
  signedOutList: string;
  /** The caller's connections were refused 401: every row is signed out. */
  signedOut: string;
  /** The caller's connections could not be read: no row's state is known. */
  checkFailed: string;
  /** The button that reads it again. */
  retry: string;
  /** A row's badge: its connection works. */
  badgeConnected: string;
  /** A row's badge: its connection needs the user to sign in again. */
  badgeAttention: string;
  /** A row's badge: no connection. */
  badgeNone: string;
  /** A row's badge: the connections could not be read. */
  badgeUnknown: string;
  /** A row's badge: the user is signed out. */
  badgeSignedOut: string;
  /** Under a connected row's name: when it was connected (`{date}`). */
  since: string;
  /** The summary line (the `summary` attribute): how many rows are connected and how many need attention. */
  summary: string;
  /** The summary's toggle that shows only the rows needing attention. */
  filter: string;
  /** The filter is on and no row needs attention. */
  noneNeedAttention: string;
}

/** The list's built-in English, as written (checked against every pack's type, src/element/locales.ts). */
export const INTEGRATIONS_ENGLISH = {
  search: 'Search integrations',
  matches: '{count} of {total} integrations',
  noMatch: 'No integration matches “{query}”.',
  clear: 'Clear search',
  empty: 'There are no integrations to connect.',
  loadFailed: 'The integrations could not be loaded.',
  notSetUp: 'The integrations are not set up on this site.',
  signedOutList: 'Sign in to see your integrations.',
  signedOut: 'Sign in to connect your integrations.',
  checkFailed: 'Your connections could not be checked.',
  retry: 'Try again',
  badgeConnected: 'Connected',
  badgeAttention: 'Needs attention',
  badgeNone: 'Not connected',
  badgeUnknown: 'Couldn’t check',
  badgeSignedOut: 'Sign in to connect',
  since: 'since {date}',
  summary: 'Connected: {connected} · Needs attention: {attention}',
  filter: 'Show only those needing attention',
  noneNeedAttention: 'No integration needs attention.',
} as const satisfies IntegrationsStrings;

export const DEFAULT_INTEGRATIONS_STRINGS: IntegrationsStrings = INTEGRATIONS_ENGLISH;
