// The typings' list of settable properties (ConnectProviderProperties, what the React wrapper, React's JSX, Vue and
// Svelte accept) is exactly the element's public writable properties: a property added to the element and not to
// the list, or a read-only one in it, fails here.
import type { LitElement } from 'lit';
import type { ConnectProvider } from 'connect-provider';
import type { ConnectProviderProperties } from 'connect-provider/react';

/** Internal: true when X and Y are the same type. */
type Equals<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
/** The keys of T that are not readonly (a getter without a setter is readonly). */
type WritableKeys<T> = {
  [K in keyof T]-?: Equals<{ [Q in K]: T[K] }, { -readonly [Q in K]: T[K] }> extends true ? K : never;
}[keyof T];
/** The keys of T that hold methods. */
type MethodKeys<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

/** The element's own public writable properties: not LitElement's (nor HTMLElement's), not its methods. */
type Writable = Exclude<WritableKeys<ConnectProvider>, keyof LitElement | MethodKeys<ConnectProvider>>;

export const same: Equals<keyof ConnectProviderProperties, Writable> = true;
// @ts-expect-error state is read-only: not a settable property
export const withState: Equals<keyof ConnectProviderProperties, Writable | 'state'> = true;
// @ts-expect-error a property the element lacks would be caught too
export const withNope: Equals<keyof ConnectProviderProperties | 'nope', Writable> = true;
