// Every user-facing string of the element, English by default. `{provider}`
// is replaced by the provider's name (its first letter in upper case).
export interface ConnectStrings {
  /** Button label in create mode. */
  connect: string;
  /** Button label in update mode. */
  reconnect: string;
  /** Written into the popup while the URL is fetched. */
  popup: string;
  requesting: string;
  authorizing: string;
  blocked: string;
  /** The fallback button's label. */
  openPopup: string;
  /** The popup reads closed with no outcome: it may be severed (Cross-Origin-Opener-Policy) while the user signs in. */
  waiting: string;
  /** The button that ends the wait at once. */
  stopWaiting: string;
  verifying: string;
  working: string;
  bad_credentials: string;
  /** Any other error. */
  error: string;
  /** The user denied access, or the provider failed the consent. */
  authorization_failed: string;
  timeout: string;
  network_error: string;
  cancelled: string;
}

export const DEFAULT_STRINGS: ConnectStrings = {
  connect: 'Connect {provider}',
  reconnect: 'Reconnect {provider}',
  popup: 'Connecting…',
  requesting: 'Connecting…',
  authorizing: 'Waiting for {provider}…',
  blocked: 'The browser blocked the sign-in window.',
  openPopup: 'Open the sign-in window',
  waiting: 'Waiting for {provider} sign-in…',
  stopWaiting: 'Stop waiting',
  verifying: 'Checking the connection…',
  working: 'Connected to {provider}',
  bad_credentials: '{provider} refused the credentials',
  error: 'Could not connect. Please try again later.',
  authorization_failed: '{provider} access was not granted',
  timeout: 'The sign-in took too long. Please try again.',
  network_error: 'The server could not be reached. Please try again.',
  cancelled: 'Cancelled',
};
