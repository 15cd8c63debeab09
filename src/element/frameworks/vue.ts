// connect-provider/vue (types only): <connect-provider> in Vue templates as a
// global component, with typed props and `@connect-*` events (the shape of
// Vue's own guide for custom elements). The runtime still needs
// `compilerOptions.isCustomElement`.
//   import type {} from 'connect-provider/vue';
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { ConnectIntegrations } from '../connect-integrations.js';
import type { ConnectProvider } from '../connect-provider.js';
import type {
  ConnectEvents,
  ConnectIntegrationsAttributes,
  ConnectIntegrationsEvents,
  ConnectIntegrationsProperties,
  ConnectProviderAttributes,
  ConnectProviderProperties,
  ReadOnlyAttributes,
} from './attributes.js';

export type ConnectProviderVueComponent = new () => ConnectProvider & {
  /** @deprecated For template type checking only; not on a ref to the element. */
  $props: HTMLAttributes & ConnectProviderProperties & ConnectProviderAttributes & ReadOnlyAttributes & PublicProps;
  /** @deprecated For template type checking only; not on a ref to the element. */
  $emit: EmitFn<{ [K in keyof ConnectEvents]: (event: ConnectEvents[K]) => void }>;
};

export type ConnectIntegrationsVueComponent = new () => ConnectIntegrations & {
  /** @deprecated For template type checking only; not on a ref to the element. */
  $props: HTMLAttributes & ConnectIntegrationsProperties & ConnectIntegrationsAttributes & PublicProps;
  /** @deprecated For template type checking only; not on a ref to the element. */
  $emit: EmitFn<{ [K in keyof ConnectIntegrationsEvents]: (event: ConnectIntegrationsEvents[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'connect-provider': ConnectProviderVueComponent;
    'connect-integrations': ConnectIntegrationsVueComponent;
  }
}
