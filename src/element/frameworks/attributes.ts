// Types only: what a template may set on <connect-provider> and
// <connect-integrations>, shared by the React, Vue and Svelte typings beside
// this file.
import type { ConnectIntegrations } from '../connect-integrations.js';
import type {
  ConnectIntegrationsChangeDetail,
  ConnectIntegrationsErrorDetail,
  ConnectIntegrationsLoadedDetail,
} from '../integrations-events.js';
import type { ConnectProvider } from '../connect-provider.js';
import type { ConnectEventDetails } from '../events.js';

/** The element's table of public properties (its `static properties`), from which the typings below derive. */
type ProviderTable = typeof ConnectProvider.properties;

/** The settable properties, typed from the element (React 19, Svelte 5 and Vue set a property the element has). */
export type ConnectProviderProperties = Partial<Pick<ConnectProvider, keyof ProviderTable>>;

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

/** Internal: each dashed attribute of a table of properties, and the property it reflects. */
type DashedOf<Table> = {
  [P in keyof Table as Table[P] extends { attribute: `${string}-${string}` } ? Table[P]['attribute'] : never]: P;
};

/** Internal: each dashed attribute and the property it reflects. */
type DashedAttributes = DashedOf<ProviderTable>;

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

/** The list's table of properties: its public ones (its internal state is declared `state: true`). */
type IntegrationsTable = {
  [
    P in keyof typeof ConnectIntegrations.properties as (typeof ConnectIntegrations.properties)[P] extends {
      state: true;
    }
      ? never
      : P
  ]: (typeof ConnectIntegrations.properties)[P];
};

/** The list's settable properties, typed from the element. */
export type ConnectIntegrationsProperties = Partial<Pick<ConnectIntegrations, keyof IntegrationsTable>>;

/** The list's dashed attributes under their HTML names. */
export type ConnectIntegrationsAttributes = {
  [A in keyof DashedOf<IntegrationsTable>]?: AttributeValue<
    NonNullable<ConnectIntegrations[DashedOf<IntegrationsTable>[A] & keyof ConnectIntegrations]>
  >;
};

/** The list's events: its own, and every row's (they leave the list, `detail.provider` naming the row). */
export type ConnectIntegrationsEventDetails = ConnectEventDetails & {
  'connect-integrations-loaded': ConnectIntegrationsLoadedDetail;
  'connect-integrations-change': ConnectIntegrationsChangeDetail;
  'connect-integrations-error': ConnectIntegrationsErrorDetail;
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
