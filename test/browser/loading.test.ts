import { expect } from '@open-wc/testing';
import { ConnectProvider, defineConnectProvider } from '../../src/index.js';

describe('loading <connect-provider>', () => {
  it('should register the tag once and not throw when defined again', () => {
    defineConnectProvider();
    defineConnectProvider();
    expect(customElements.get('connect-provider')).to.equal(ConnectProvider);
  });

  it('should not throw when the self-contained bundle loads twice beside the module build', async () => {
    const errors: string[] = [];
    const onError = (e: ErrorEvent) => errors.push(e.message);
    window.addEventListener('error', onError);
    try {
      // Built by the runner's config (scripts/bundle.mjs); URLs typed as strings so tsc does not resolve them.
      const url: string = '/dist/connect-provider.js';
      const first = await import(`${url}?copy=1`);
      const second = await import(`${url}?copy=2`);
      expect(first.ConnectProvider).to.not.equal(second.ConnectProvider, 'two copies really loaded');
      expect(customElements.get('connect-provider')).to.equal(ConnectProvider, 'the first registration stands');
      expect(errors).to.deep.equal([]);
    } finally {
      window.removeEventListener('error', onError);
    }
  });
});
