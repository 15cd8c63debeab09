// connect-provider/react-jsx (types only): the raw <connect-provider> tag in
// React 19's JSX, with typed properties, attributes and `onconnect-*`
// handlers (React 19 listens to `connect-success` for `onconnect-success`).
//   import type {} from 'connect-provider/react-jsx';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
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

export type ConnectProviderJSXProps = DetailedHTMLProps<HTMLAttributes<ConnectProvider>, ConnectProvider> &
  ConnectProviderProperties &
  ConnectProviderAttributes &
  ConnectEventHandlers<'on'> &
  ReadOnlyAttributes;

export type ConnectIntegrationsJSXProps = DetailedHTMLProps<HTMLAttributes<ConnectIntegrations>, ConnectIntegrations> &
  ConnectIntegrationsProperties &
  ConnectIntegrationsAttributes &
  ConnectIntegrationsEventHandlers<'on'>;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React 19 declares JSX as a namespace of its module
  namespace JSX {
    interface IntrinsicElements {
      'connect-provider': ConnectProviderJSXProps;
      'connect-integrations': ConnectIntegrationsJSXProps;
    }
  }
}
