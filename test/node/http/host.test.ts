// What a Host or X-Forwarded-Host header may hold (src/http/host.ts), at its bounds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { raw } from '../helpers/raw-http.js';
import { listen, statusOf, bodyOf } from '../helpers/node-listen.js';

describe('Host headers at their bounds (src/http/host.ts)', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    server = await listen(async (request) => new Response(new URL(request.url).host));
  });
  after(() => server.close());

  const withHost = (host: string) => raw(server.port, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

  it('takes bracketed IPv6 addresses, with or without a port, and nothing else in brackets', async () => {
    for (const host of ['[::1]', '[::1]:8080', '[2001:db8::7]:443', '[::ffff:127.0.0.1]']) {
      const answer = await withHost(host);
      assert.equal(statusOf(answer), 200, host);
      assert.equal(bodyOf(answer), host.replace('[::ffff:127.0.0.1]', '[::ffff:7f00:1]'), host);
    }
    for (const host of ['[]', '[:]', '[zz]', '[::1', '[::g]:80', '[::1]x']) {
      const answer = await withHost(host);
      assert.equal(statusOf(answer), 400, host);
      assert.match(bodyOf(answer), /the Host header is not a plain host\[:port\]/, host);
    }
  });

  it('takes a Host of 255 characters and refuses one of 256', async () => {
    const label = (c: string) => c.repeat(63);
    const longest = [label('a'), label('b'), label('c'), label('d')].join('.');
    assert.equal(longest.length, 255);
    const answer = await withHost(longest);
    assert.equal(statusOf(answer), 200);
    assert.equal(bodyOf(answer), longest);
    // The same name with the trailing dot a fully qualified name may carry: the shape is fine, the length is not.
    const tooLong = await withHost(`${longest}.`);
    assert.equal(statusOf(tooLong), 400);
    assert.match(bodyOf(tooLong), /the Host header is not a plain host\[:port\]/);
  });
});
