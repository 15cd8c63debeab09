// The one rule for which URLs the browser may be sent to or load from (src/shared/url.ts): https, or http on a
// loopback host (localhost and its subdomains, 127.0.0.0/8, [::1]), with no user info, and only a string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAllowedUrl, isLoopbackHost, parseAllowedUrl, parseUrl } from '../../../src/shared/url.js';

describe('isLoopbackHost', () => {
  it('is localhost and its subdomains, 127.0.0.0/8 and [::1], and no host that merely ends in localhost or 127.x.x.x', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'app.localhost', '127.0.0.1', '127.255.10.2', '[::1]'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of [
      '10.127.0.0.1',
      'x127.0.0.1',
      '127.0.0.1.nip.io',
      'localhost.example',
      'evillocalhost',
      'example.com',
      '[::2]',
    ])
      assert.equal(isLoopbackHost(host), false, host);
  });
});

describe('isAllowedUrl', () => {
  it('allows https anywhere and http on a loopback host only', () => {
    for (const url of [
      'https://cdn.example/icon.svg',
      'http://localhost:4010/x',
      'http://127.0.0.1/x',
      'http://[::1]/',
    ])
      assert.equal(isAllowedUrl(url), true, url);
    for (const url of ['http://cdn.example/icon.svg', 'javascript:alert(1)', 'data:text/html,x', 'no url', ''])
      assert.equal(isAllowedUrl(url), false, url);
  });

  it('refuses a URL with a user name or a password', () => {
    assert.equal(isAllowedUrl('https://user@cdn.example/'), false);
    assert.equal(isAllowedUrl('https://:secret@cdn.example/'), false);
  });

  it('refuses anything but a string, even a value that reads as an allowed URL', () => {
    for (const value of [new URL('https://cdn.example/'), ['https://cdn.example/'], undefined, null, 5]) {
      assert.equal(isAllowedUrl(value), false, String(value));
      assert.equal(parseAllowedUrl(value), null, String(value));
    }
  });
});

describe('parseUrl', () => {
  it('is the URL of a text, resolved against a base when given, and undefined for a text that does not parse', () => {
    assert.equal(parseUrl('https://app.example/a?b')?.href, 'https://app.example/a?b');
    assert.equal(parseUrl('/x', 'http://localhost:4010/v1/')?.href, 'http://localhost:4010/x');
    for (const text of ['', 'not a url', '/relative', 'http://host:99999/'])
      assert.equal(parseUrl(text), undefined, text);
    assert.equal(parseUrl('/x', 'not a base'), undefined);
  });
});
