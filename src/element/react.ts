// connect-provider/react: <ConnectProvider>, the element as a React component
// (@lit/react), with typed on<Event> props: onConnectStart, onConnectSuccess...
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { ConnectProvider as ConnectProviderElement } from './connect-provider.js';
import { defineConnectProvider, TAG } from './define.js';
import type { ConnectEventDetails } from './events.js';

defineConnectProvider();

type Event<K extends keyof ConnectEventDetails> = EventName<CustomEvent<ConnectEventDetails[K]>>;

export const ConnectProvider = createComponent({
  tagName: TAG,
  elementClass: ConnectProviderElement,
  react: React,
  events: {
    onConnectStart: 'connect-start' as Event<'connect-start'>,
    onConnectPopup: 'connect-popup' as Event<'connect-popup'>,
    onConnectPopupBlocked: 'connect-popup-blocked' as Event<'connect-popup-blocked'>,
    onConnectConnection: 'connect-connection' as Event<'connect-connection'>,
    onConnectStatus: 'connect-status' as Event<'connect-status'>,
    onConnectSuccess: 'connect-success' as Event<'connect-success'>,
    onConnectError: 'connect-error' as Event<'connect-error'>,
    onConnectCancel: 'connect-cancel' as Event<'connect-cancel'>,
    onConnectLoaded: 'connect-loaded' as Event<'connect-loaded'>,
    onConnectDisconnect: 'connect-disconnect' as Event<'connect-disconnect'>,
  },
  displayName: 'ConnectProvider',
});

export type { ConnectEventDetails };
export { ConnectError } from './events.js';
