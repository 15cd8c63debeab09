// connect-provider/svelte (types only): <connect-provider> in Svelte 5
// markup, with typed properties, attributes and `onconnect-*` handlers.
//   import type {} from 'connect-provider/svelte';
import type { HTMLAttributes } from 'svelte/elements';
import type { ConnectProvider } from '../connect-provider.js';
import type {
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

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'connect-provider': ConnectProviderSvelteProps;
  }
}
