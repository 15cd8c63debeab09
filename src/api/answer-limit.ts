// The bound on the 2xx answers the platform client reads, as errors.ts bounds an
// error's body: read chunk by chunk off the stream (never whole, never blocking
// the event loop for long), and refused once past the bound, the rest unread.
import type { Middleware } from 'openapi-fetch';
import { PlatformRequestError } from './errors.js';

/**
 * Largest 2xx answer read, in bytes: 8 MiB. The largest answers are lists: a connection is about 0.8 KB as the
 * emulator answers it (1 to 2 KB with a provider's metadata), so 8 MiB holds some 5,000 to 10,000 connections, past
 * the emulator's own limit of 5,000; parsing that much takes about 60 ms.
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Reads every 2xx answer up to `maxBytes` and hands it on whole; a larger one is an `invalid_response`. */
export function answerLimit(maxBytes: number): Middleware {
  return {
    async onResponse({ request, response }) {
      if (!response.ok || !response.body) return undefined;
      const tooLarge = () =>
        new PlatformRequestError(
          'invalid_response',
          `the answer to ${request.method} ${request.url} is larger than ${maxBytes} bytes`,
        );
      if (Number(response.headers.get('content-length')) > maxBytes) {
        await response.body.cancel().catch(() => {});
        throw tooLarge();
      }
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          throw tooLarge();
        }
        chunks.push(value);
      }
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.byteLength;
      }
      const whole = new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      // A built Response has no URL; the client's messages name the answer's.
      Object.defineProperty(whole, 'url', { value: response.url });
      return whole;
    },
  };
}
