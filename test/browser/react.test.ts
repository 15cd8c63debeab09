import { expect } from '@open-wc/testing';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ConnectProvider } from '../../src/element/react.js';
import type { ConnectProvider as ConnectProviderElement } from '../../src/index.js';

async function until<T>(get: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = get();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out');
}

describe('connect-provider/react', () => {
  it('should render <connect-provider> with React 19 and call the on<Event> props', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    const seen: string[] = [];
    let errorCode = '';
    root.render(
      createElement(ConnectProvider, {
        // No endpoint: the flow ends at once with invalid_config, before any request.
        provider: 'salesforce',
        pollInterval: 500,
        onConnectStart: (e) => seen.push(`start:${e.detail.mode}`),
        onConnectError: (e) => {
          seen.push('error');
          errorCode = e.detail.code;
        },
      }),
    );
    const el = await until(() => container.querySelector('connect-provider') as ConnectProviderElement | null);
    expect(el.pollInterval, 'props are set as properties').to.equal(500);
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part=button]')!.click();
    expect(seen).to.deep.equal(['start:create', 'error']);
    expect(errorCode).to.equal('invalid_config');
    root.unmount();
    container.remove();
  });
});
