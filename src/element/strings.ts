// Every user-facing string of the element, English by default. `{provider}`
// is replaced by the provider's name (its displayName once the backend told
// it), and `{field}` by the name of a missing input.
export interface ConnectStrings {
  /** Button label with no connection. */
  connect: string;
  /** Button label with a connection (or in update mode). */
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
  /** Connected: after a flow, and at rest. */
  working: string;
  /** A flow ended with the provider refusing the sign-in. */
  bad_credentials: string;
  /** At rest: the connection needs the user to sign in again. */
  needsReconnect: string;
  /** Any other error. */
  error: string;
  /** The user denied access, or the provider failed the consent. */
  authorization_failed: string;
  /** The user took too long to sign in. */
  timeout: string;
  /** The provider did not confirm the new connection in time. */
  verifyTimeout: string;
  network_error: string;
  /** The backend answered, but failed every time. */
  unavailable: string;
  /** The backend does not know who the user is (401). */
  signIn: string;
  /** The backend does not serve this provider (400 or 404 for it). */
  unknownProvider: string;
  cancelled: string;
  /** A required input is empty (or only spaces). */
  required: string;
  /** The backend refused what an input holds (a 400 naming it): the user's to fix. */
  refusedField: string;
  /** An input holds more than the backend accepts. */
  tooLong: string;
  /** The control that shows a masked input's value (its pressed state says whether it is shown). */
  reveal: string;
  /** The label of the workspace input (e.g. a Zendesk subdomain). */
  workspace: string;
  /** The workspace input holds characters a workspace cannot have. */
  invalidWorkspace: string;
  /** The link to a provider's docs for an input. */
  docs: string;
  /** Credential inputs of providers that sign in without a consent page. */
  apiKey: string;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  /** The empty first option of a choice. */
  choose: string;
  /** Closes the reconnect form of such a provider, keeping the connection as it is. */
  back: string;
  /** Stops a form's request in flight. */
  cancel: string;
  /** A list row's short button labels (the row names the provider; the accessible name is `connect`/`reconnect`). */
  connectShort: string;
  reconnectShort: string;
  disconnect: string;
  /** The disconnect button's accessible name, so that rows of a list are told apart. */
  disconnectNamed: string;
  /** Asked in place before disconnecting. */
  confirmDisconnect: string;
  /** The button that confirms. */
  confirm: string;
  /** The button that keeps the connection. */
  keep: string;
  disconnectFailed: string;
  /** Said once a disconnect is done. */
  disconnected: string;
  /** No window can open here: the link way's status line, above the consent link shown as text and as a QR code. */
  linkWay: string;
  /** The button that copies the consent link. */
  copyLink: string;
  /** Announced once the link is on the clipboard. */
  copied: string;
  /** Announced when the browser refuses the clipboard and the link's text is selected instead. */
  copySelected: string;
  /** The QR code's accessible name (its description is the link itself). */
  qrLabel: string;
}

/** The built-in English, as written (its placeholders checked against every pack's type, src/element/locales.ts). */
export const ENGLISH = {
  connect: 'Connect {provider}',
  reconnect: 'Reconnect {provider}',
  popup: 'Connecting to {provider}…',
  requesting: 'Connecting…',
  authorizing: 'Waiting for {provider}…',
  blocked: 'The browser blocked the sign-in window.',
  openPopup: 'Open the sign-in window',
  waiting: 'Waiting for {provider} sign-in…',
  stopWaiting: 'Stop waiting',
  verifying: 'Checking the connection…',
  working: 'Connected to {provider}',
  bad_credentials: '{provider} did not accept the sign-in. Please try again.',
  needsReconnect: '{provider} needs you to sign in again.',
  error: 'Could not connect. Please try again later.',
  authorization_failed: '{provider} access was not granted.',
  timeout: 'The sign-in took too long. Please try again.',
  verifyTimeout: '{provider} did not confirm the connection in time. Please try again.',
  network_error: 'The server could not be reached. Please try again.',
  unavailable: 'Connecting is not available right now. Please try again later.',
  signIn: 'Please sign in to connect {provider}.',
  unknownProvider: '{provider} cannot be connected here.',
  cancelled: 'The sign-in was cancelled.',
  required: 'Enter “{field}” to connect {provider}.',
  refusedField: '{provider} cannot use this “{field}”. Check it and try again.',
  tooLong: '“{field}” is too long.',
  reveal: 'Show {field}',
  workspace: '{provider} workspace',
  invalidWorkspace: 'Use only letters a–z, digits, dots and hyphens for your {field}.',
  docs: 'Where to find it',
  apiKey: 'API key',
  username: 'Username',
  password: 'Password',
  clientId: 'Client ID',
  clientSecret: 'Client secret',
  choose: 'Choose…',
  back: 'Back',
  cancel: 'Cancel',
  connectShort: 'Connect',
  reconnectShort: 'Reconnect',
  disconnect: 'Disconnect',
  disconnectNamed: 'Disconnect {provider}',
  confirmDisconnect: 'Disconnect {provider}?',
  confirm: 'Yes, disconnect',
  keep: 'Keep',
  disconnectFailed: 'Could not disconnect {provider}. Please try again.',
  disconnected: 'Disconnected from {provider}.',
  linkWay: 'Open this link in your browser to connect {provider}.',
  copyLink: 'Copy link',
  copied: 'Copied',
  copySelected: 'The link is selected: copy it with your keyboard or menu.',
  qrLabel: 'QR code of the link to connect {provider}',
} as const satisfies ConnectStrings;

export const DEFAULT_STRINGS: ConnectStrings = ENGLISH;
