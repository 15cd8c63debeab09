// The typings' lists of settable properties (ConnectProviderProperties and ConnectIntegrationsProperties, what the
// React wrappers, React's JSX, Vue and Svelte accept) are exactly each element's public writable properties: a
// property added to an element and not to its list, or a read-only one in it, fails here.
import type { LitElement } from 'lit';
import type { ConnectProvider } from 'connect-provider';
import type { ConnectIntegrations } from 'connect-provider/integrations';
import type { ConnectIntegrationsProperties, ConnectProviderProperties } from 'connect-provider/react';

/** Internal: true when X and Y are the same type. */
type Equals<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
/** The keys of T that are not readonly (a getter without a setter is readonly). */
type WritableKeys<T> = {
  [K in keyof T]-?: Equals<{ [Q in K]: T[K] }, { -readonly [Q in K]: T[K] }> extends true ? K : never;
}[keyof T];
/** The keys of T that hold methods. */
type MethodKeys<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

/** An element's own public writable properties: not LitElement's (nor HTMLElement's), not its methods. */
type Writable<E> = Exclude<WritableKeys<E>, keyof LitElement | MethodKeys<E>>;

export const same: Equals<keyof ConnectProviderProperties, Writable<ConnectProvider>> = true;
// @ts-expect-error state is read-only: not a settable property
export const withState: Equals<keyof ConnectProviderProperties, Writable<ConnectProvider> | 'state'> = true;
// @ts-expect-error a property the element lacks would be caught too
export const withNope: Equals<keyof ConnectProviderProperties | 'nope', Writable<ConnectProvider>> = true;

export const sameList: Equals<keyof ConnectIntegrationsProperties, Writable<ConnectIntegrations>> = true;
// @ts-expect-error the list has no `provider`: its rows do
export const listWithProvider: Equals<
  keyof ConnectIntegrationsProperties | 'provider',
  Writable<ConnectIntegrations>
> = true;
// @ts-expect-error a property of the list missing from the typings would be caught too
export const listWithout: Equals<
  Exclude<keyof ConnectIntegrationsProperties, 'descriptions'>,
  Writable<ConnectIntegrations>
> = true;
