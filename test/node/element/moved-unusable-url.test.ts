// The consent URL a backend answers is used only when it is https, or http on a loopback host (docs/element.md,
// "Events": invalid_url): the flow checks it with src/shared/url.ts's isAllowedUrl before the popup goes there, and
// ends `invalid_url` otherwise. The URLs below are the ones the browser suite's backend fixtures answer or answered
// (test/browser/server/middleware.ts); element-backend.test.ts keeps one refused URL (plain http) and a missing one to
// see the flow end `invalid_url`, and the accepted ones to see the popup go there. Moved from that file: the
// `javascript:` URL and the host that only starts like a loopback address, which are the URL rule alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAllowedUrl } from '../../../src/shared/url.js';

describe('the consent URLs a flow accepts', () => {
  it('should refuse a javascript: URL and an http URL whose host only starts like 127.x', () => {
    for (const url of ['javascript:alert(1)', 'http://127.evil.example/consent', 'http://evil.example/consent'])
      assert.equal(isAllowedUrl(url), false, url);
  });

  it('should take http on a loopback host and https on a loopback address', () => {
    for (const url of ['http://localhost:1/consent', 'https://127.0.0.1:1/never'])
      assert.equal(isAllowedUrl(url), true, url);
  });
});
