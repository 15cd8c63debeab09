// Registers <connect-provider> once, even when the bundle loads twice, and
// never on a server without custom elements. A page that also holds a
// <connect-integrations> this entry does not define hears which import does.
import { ConnectProvider } from './connect-provider.js';

export const TAG = 'connect-provider';

export function defineConnectProvider(): void {
  if (typeof customElements === 'undefined' || customElements.get(TAG)) return;
  customElements.define(TAG, ConnectProvider);
  // A second after this entry ran (a framework has rendered by then), an undefined list is a blank on the page.
  setTimeout(
    () =>
      typeof document !== 'undefined' &&
      document.querySelector('connect-integrations:not(:defined)') &&
      console.warn(
        "<connect-provider>: <connect-integrations> is on the page but not defined: import 'connect-provider/integrations' (or load dist/connect-provider.js), which defines both tags",
      ),
    1000,
  );
}

defineConnectProvider();

declare global {
  interface HTMLElementTagNameMap {
    'connect-provider': ConnectProvider;
  }
}
