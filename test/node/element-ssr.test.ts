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
    const { defineConnectProvider } = await import('../../src/index.js');
    defineConnectProvider();
    defineConnectProvider();
  });

  it('imports the React wrapper in Node too', async () => {
    const module = await import('../../src/element/react.js');
    assert.equal(typeof module.ConnectProvider, 'object');
  });
});
