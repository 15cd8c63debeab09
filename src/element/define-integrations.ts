// Registers <connect-integrations> (and the <connect-provider> of its rows) once, even when the bundle loads twice,
// and never on a server without custom elements.
import { ConnectIntegrations } from './connect-integrations.js';
import './define.js';

export const INTEGRATIONS_TAG = 'connect-integrations';

export function defineConnectIntegrations(): void {
  if (typeof customElements !== 'undefined' && !customElements.get(INTEGRATIONS_TAG))
    customElements.define(INTEGRATIONS_TAG, ConnectIntegrations);
}

defineConnectIntegrations();

declare global {
  interface HTMLElementTagNameMap {
    'connect-integrations': ConnectIntegrations;
  }
}
