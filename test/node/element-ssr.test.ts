// The element's entry points on a server (SSR frameworks import them there): they import without a DOM, register
// the tag at most once, and the React wrapper imports too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

describe('the element entry on a server', () => {
  it('imports in Node without touching window or document', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
    const module = await import('../../src/index.js');
    assert.equal(typeof module.ConnectProvider, 'function');
    assert.equal(module.TAG, 'connect-provider');
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined', 'importing defined no window');
  });

  it('registers the tag at most once, however often define runs', async () => {
    // On a server, Lit installs @lit-labs/ssr-dom-shim's registry, which (like a
    // browser's) throws when a name or a class is defined a second time.
    const { ConnectProvider, defineConnectProvider, TAG } = await import('../../src/index.js');
    const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
    assert.ok(registry, "Lit's server registry is installed");
    assert.equal(registry.get(TAG), ConnectProvider, 'importing the entry registered the tag');
    assert.doesNotThrow(() => {
      defineConnectProvider();
      defineConnectProvider();
    });
    assert.equal(registry.get(TAG), ConnectProvider, 'still the one registration');
  });

  it('imports the React wrapper in Node too', async () => {
    const module = await import('../../src/element/react.js');
    assert.equal(typeof module.ConnectProvider, 'object');
  });
});
