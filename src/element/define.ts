// Registers <connect-provider> once, even when the bundle loads twice, and
// never on a server without custom elements.
import { ConnectProvider } from './connect-provider.js';

export const TAG = 'connect-provider';

export function defineConnectProvider(): void {
  if (typeof customElements !== 'undefined' && !customElements.get(TAG)) customElements.define(TAG, ConnectProvider);
}

defineConnectProvider();

declare global {
  interface HTMLElementTagNameMap {
    'connect-provider': ConnectProvider;
  }
}
