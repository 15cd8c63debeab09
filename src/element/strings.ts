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
  verifying: string;
  working: string;
  bad_credentials: string;
  error: string;
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
  verifying: 'Checking the connection…',
  working: 'Connected to {provider}',
  bad_credentials: '{provider} refused the credentials',
  error: 'Could not connect',
  cancelled: 'Cancelled',
};
