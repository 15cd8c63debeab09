// connect-provider/svelte (types only): <connect-provider> in Svelte 5
// markup, with typed properties, attributes and `onconnect-*` handlers.
//   import type {} from 'connect-provider/svelte';
import type { HTMLAttributes } from 'svelte/elements';
import type { ConnectIntegrations } from '../connect-integrations.js';
import type { ConnectProvider } from '../connect-provider.js';
import type {
  ConnectIntegrationsAttributes,
  ConnectIntegrationsEventHandlers,
  ConnectIntegrationsProperties,
  ConnectEventHandlers,
  ConnectProviderAttributes,
  ConnectProviderProperties,
  ReadOnlyAttributes,
} from './attributes.js';

export type ConnectProviderSvelteProps = HTMLAttributes<ConnectProvider> &
  ConnectProviderProperties &
  ConnectProviderAttributes &
  ConnectEventHandlers<'on'> &
  ReadOnlyAttributes;

export type ConnectIntegrationsSvelteProps = HTMLAttributes<ConnectIntegrations> &
  ConnectIntegrationsProperties &
  ConnectIntegrationsAttributes &
  ConnectIntegrationsEventHandlers<'on'>;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'connect-provider': ConnectProviderSvelteProps;
    'connect-integrations': ConnectIntegrationsSvelteProps;
  }
}
