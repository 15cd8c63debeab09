// Which URLs from the platform the handler passes on to the browser (src/server/platform-url.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, urlReply } from '../helpers/handler-calls.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

describe("the platform's URLs", () => {
  const { platform, errors, make } = handlerOnPlatformDouble();
  it(
    'refuses a URL with a user name or a password alone, naming its scheme in the log',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      for (const [url, scheme] of [
        ['https://user@consent.example/x', 'https'],
        ['https://:secret@consent.example/x', 'https'],
        ['javascript:alert(1)', 'javascript'],
        ['no scheme at all', 'none'],
      ]) {
        platform.reply = () => urlReply(url);
        errors.length = 0;
        const body = await problemOf(
          await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } }),
          502,
        );
        assert.deepEqual(
          { type: body.type, title: body.title, retryable: body.retryable },
          { type: 'urn:connect-provider:problem:unusable-url', title: 'Bad Gateway', retryable: false },
        );
        assert.equal(
          errors[0].message,
          `POST /oauth-connect answered 502: platform oauth-connect answered an unusable URL (scheme ${scheme}:)`,
        );
        assert.equal(errors[0].kind, 'platform');
      }
    },
  );
});
