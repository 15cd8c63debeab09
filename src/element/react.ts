'use client';
// connect-provider/react: <ConnectProvider>, the element as a React component
// (@lit/react), with typed on<Event> props: onConnectStart, onConnectSuccess...
// A client component ('use client', kept first in dist/ by the build): React
// Server Components cannot render it, and a page that imports it stays server-rendered.
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { ConnectIntegrations as ConnectIntegrationsElement } from './connect-integrations.js';
import { ConnectProvider as ConnectProviderElement } from './connect-provider.js';
import { defineConnectIntegrations, INTEGRATIONS_TAG } from './define-integrations.js';
import { defineConnectProvider, TAG } from './define.js';
import type { ConnectEventDetails } from './events.js';
import type {
  ConnectIntegrationsEventDetails,
  ConnectIntegrationsProperties,
  ConnectProviderProperties,
  ReadOnlyAttributes,
} from './frameworks/attributes.js';

defineConnectProvider();
defineConnectIntegrations();

/** Internal: 'connect-popup-blocked' -> 'ConnectPopupBlocked'. */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<S>;

/** Internal: each event's prop, `onConnectSuccess` for `connect-success`. */
type EventProp<K extends string> = `on${Pascal<K>}`;

/** The `on*` props: a handler of each of the element's events, given the event with its typed `detail`. */
export type ConnectProviderEventProps = {
  [K in keyof ConnectEventDetails as EventProp<K>]?: (event: CustomEvent<ConnectEventDetails[K]>) => void;
};

/**
 * The props of `<ConnectProvider>`: the element's public writable properties, its events as `on*` props, the host's
 * HTML attributes (`id`, `className`, `style`, `children` for the label...) and a `ref` to the element. Not the
 * element's read-only members (`state`, `connection`, `error`) nor Lit's (`renderRoot`, `updateComplete`...).
 */
export type ConnectProviderProps = Omit<
  React.HTMLAttributes<ConnectProviderElement>,
  keyof ConnectProviderProperties | keyof ConnectProviderEventProps | keyof ReadOnlyAttributes
> &
  ConnectProviderProperties &
  ConnectProviderEventProps &
  ReadOnlyAttributes &
  React.RefAttributes<ConnectProviderElement>;

const events = {
  onConnectStart: 'connect-start',
  onConnectPopup: 'connect-popup',
  onConnectPopupBlocked: 'connect-popup-blocked',
  onConnectLink: 'connect-link',
  onConnectConnection: 'connect-connection',
  onConnectStatus: 'connect-status',
  onConnectSuccess: 'connect-success',
  onConnectError: 'connect-error',
  onConnectCancel: 'connect-cancel',
  onConnectLoaded: 'connect-loaded',
  onConnectDisconnect: 'connect-disconnect',
} satisfies { [K in keyof ConnectEventDetails as EventProp<K>]: K };

/** `<connect-provider>` as a React component (registers the tag on import in the browser). */
export const ConnectProvider: React.ForwardRefExoticComponent<ConnectProviderProps> = createComponent({
  tagName: TAG,
  elementClass: ConnectProviderElement,
  react: React,
  events: events as {
    [K in keyof ConnectEventDetails as EventProp<K>]: EventName<CustomEvent<ConnectEventDetails[K]>>;
  },
  displayName: 'ConnectProvider',
});

/** The list's `on*` props: its own events and every row's. */
export type ConnectIntegrationsEventProps = {
  [K in keyof ConnectIntegrationsEventDetails as EventProp<K>]?: (
    event: CustomEvent<ConnectIntegrationsEventDetails[K]>,
  ) => void;
};

/** The props of `<ConnectIntegrations>`: the list's writable properties, its events and the host's HTML attributes. */
export type ConnectIntegrationsProps = Omit<
  React.HTMLAttributes<ConnectIntegrationsElement>,
  keyof ConnectIntegrationsProperties | keyof ConnectIntegrationsEventProps
> &
  ConnectIntegrationsProperties &
  ConnectIntegrationsEventProps &
  React.RefAttributes<ConnectIntegrationsElement>;

/** `<connect-integrations>` as a React component (registers both tags on import in the browser). */
export const ConnectIntegrations: React.ForwardRefExoticComponent<ConnectIntegrationsProps> = createComponent({
  tagName: INTEGRATIONS_TAG,
  elementClass: ConnectIntegrationsElement,
  react: React,
  events: {
    ...events,
    onConnectIntegrationsLoaded: 'connect-integrations-loaded',
    onConnectIntegrationsChange: 'connect-integrations-change',
    onConnectIntegrationsError: 'connect-integrations-error',
  } satisfies { [K in keyof ConnectIntegrationsEventDetails as EventProp<K>]: K } as {
    [K in keyof ConnectIntegrationsEventDetails as EventProp<K>]: EventName<
      CustomEvent<ConnectIntegrationsEventDetails[K]>
    >;
  },
  displayName: 'ConnectIntegrations',
});

export type { ConnectEventDetails, ConnectIntegrationsProperties, ConnectProviderProperties };
export { ConnectError } from './events.js';
