// Types only: what a template may set on <connect-provider> and
// <connect-integrations>, shared by the React, Vue and Svelte typings beside
// this file.
import type { ConnectIntegrations, ConnectIntegrationsLoadedDetail } from '../connect-integrations.js';
import type { ConnectProvider } from '../connect-provider.js';
import type { ConnectEventDetails } from '../events.js';

/** The settable properties, typed from the element (React 19, Svelte 5 and Vue set a property the element has). */
export type ConnectProviderProperties = Partial<
  Pick<
    ConnectProvider,
    | 'endpoint'
    | 'provider'
    | 'groupRef'
    | 'groupName'
    | 'consumerRef'
    | 'consumerName'
    | 'providerWorkspaceRef'
    | 'providerAppId'
    | 'connectionId'
    | 'pollInterval'
    | 'timeout'
    | 'popupWidth'
    | 'popupHeight'
    | 'closedGrace'
    | 'messageOrigins'
    | 'disabled'
    | 'disconnectable'
    | 'providerMetadata'
    | 'requestHeaders'
    | 'strings'
  >
>;

/**
 * The attributes the element writes itself (`state`, `connection-status`): read them, style by them, never set them.
 * Typed `never`, so a template that sets one does not compile (a dashed name missing from a type would pass).
 */
export interface ReadOnlyAttributes {
  /** Read-only: the flow's state, reflected by the element. */
  state?: never;
  /** Read-only: the caller's connection at rest, reflected by the element. */
  'connection-status'?: never;
}

/** Internal: each dashed attribute and the property it reflects. */
interface DashedAttributes {
  'group-ref': 'groupRef';
  'group-name': 'groupName';
  'consumer-ref': 'consumerRef';
  'consumer-name': 'consumerName';
  'provider-workspace-ref': 'providerWorkspaceRef';
  'provider-app-id': 'providerAppId';
  'connection-id': 'connectionId';
  'poll-interval': 'pollInterval';
  'popup-width': 'popupWidth';
  'popup-height': 'popupHeight';
  'closed-grace': 'closedGrace';
  'message-origins': 'messageOrigins';
}

/** Internal: an attribute's value as markup may write it: numbers also as numeric strings. */
type AttributeValue<T> = T extends number ? number | `${number}` : T;

/** The dashed attributes under their HTML names (what server rendering writes), typed from the element. */
export type ConnectProviderAttributes = {
  [A in keyof DashedAttributes]?: AttributeValue<NonNullable<ConnectProvider[DashedAttributes[A]]>>;
};

/** Handlers of the element's events as `${prefix}connect-success`..., with the event's own type. */
export type ConnectEventHandlers<Prefix extends string> = {
  [K in keyof ConnectEventDetails as `${Prefix}${K}`]?: (event: CustomEvent<ConnectEventDetails[K]>) => void;
};

/** The element's events by name, as `HTMLElementEventMap` has them. */
export type ConnectEvents = { [K in keyof ConnectEventDetails]: CustomEvent<ConnectEventDetails[K]> };

/** The list's settable properties, typed from the element. */
export type ConnectIntegrationsProperties = Partial<
  Pick<
    ConnectIntegrations,
    | 'endpoint'
    | 'providers'
    | 'groupRef'
    | 'groupName'
    | 'consumerRef'
    | 'consumerName'
    | 'disconnectable'
    | 'descriptions'
    | 'requestHeaders'
    | 'strings'
  >
>;

/** The list's dashed attributes under their HTML names. */
export interface ConnectIntegrationsAttributes {
  'group-ref'?: string;
  'group-name'?: string;
  'consumer-ref'?: string;
  'consumer-name'?: string;
}

/** The list's events: its own, and every row's (they leave the list, `detail.provider` naming the row). */
export type ConnectIntegrationsEventDetails = ConnectEventDetails & {
  'connect-integrations-loaded': ConnectIntegrationsLoadedDetail;
};

/** Handlers of the list's events as `${prefix}connect-...`, with the event's own type. */
export type ConnectIntegrationsEventHandlers<Prefix extends string> = {
  [K in keyof ConnectIntegrationsEventDetails as `${Prefix}${K}`]?: (
    event: CustomEvent<ConnectIntegrationsEventDetails[K]>,
  ) => void;
};

/** The list's events by name. */
export type ConnectIntegrationsEvents = {
  [K in keyof ConnectIntegrationsEventDetails]: CustomEvent<ConnectIntegrationsEventDetails[K]>;
};
