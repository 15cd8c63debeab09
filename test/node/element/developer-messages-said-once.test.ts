// A tag's voice in the console (src/element/developer-messages.ts): each message said once per tag's voice, after
// the tag's name, another message still said; and what stops a flow before it begins, named: the endpoint attribute
// missing (in either mode), the provider attribute missing when a connection is to be made (not for an update, which
// names its connection), else a scheme the element cannot sign in with; nothing when the flow can begin. The browser
// suites hold the element saying them (element-backend.test.ts, element-form.test.ts).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { misconfigured, warnOnce } from '../../../src/element/developer-messages.js';

describe("a tag's voice in the console", () => {
  let said: unknown[][];
  beforeEach(() => {
    said = [];
    mock.method(console, 'warn', (...args: unknown[]) => said.push(args));
  });
  afterEach(() => mock.restoreAll());

  it("should say each message once, after the tag's name, and another message still", () => {
    const warn = warnOnce('connect-provider');
    warn('the endpoint attribute is required');
    warn('the endpoint attribute is required');
    warn('the provider attribute is required');
    assert.deepEqual(said, [
      ['<connect-provider>: the endpoint attribute is required'],
      ['<connect-provider>: the provider attribute is required'],
    ]);
  });

  it('should keep what each voice said to itself: another element says it again', () => {
    warnOnce('connect-provider')('once');
    warnOnce('connect-integrations')('once');
    warnOnce('connect-provider')('once');
    assert.deepEqual(said, [
      ['<connect-provider>: once'],
      ['<connect-integrations>: once'],
      ['<connect-provider>: once'],
    ]);
  });
});

describe('what stops a flow before it begins', () => {
  const attributes = { endpoint: '/api/connect', provider: 'hubspot' };

  it('should name the endpoint attribute when it is missing, in either mode, before the provider', () => {
    for (const mode of ['create', 'update'] as const)
      assert.equal(
        misconfigured({ endpoint: '', provider: '' }, mode, undefined),
        'the endpoint attribute is required',
      );
  });

  it('should name the provider attribute when it is missing and a connection is to be made, not for an update', () => {
    const noProvider = { ...attributes, provider: '' };
    assert.equal(misconfigured(noProvider, 'create', undefined), 'the provider attribute is required');
    assert.equal(misconfigured(noProvider, 'update', undefined), undefined);
  });

  it('should name a scheme the element cannot sign in with, and nothing for one it can or a provider not known', () => {
    assert.equal(
      misconfigured(attributes, 'create', { name: 'slack', authType: 'jwt' }),
      'provider "hubspot" signs in with jwt, which the element does not support',
    );
    assert.equal(misconfigured(attributes, 'update', { name: 'hubspot', authType: 'oauth2' }), undefined);
    assert.equal(misconfigured(attributes, 'create', undefined), undefined);
  });
});
