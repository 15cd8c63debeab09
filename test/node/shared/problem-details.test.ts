// The reason phrase of each HTTP status (statusTitle, src/shared/problem-details.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusTitle } from '../../../src/shared/problem-details.js';

describe('statusTitle', () => {
  it('gives the standard reason phrase of every status the platform uses', () => {
    const phrases: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      408: 'Request Timeout',
      409: 'Conflict',
      413: 'Content Too Large',
      415: 'Unsupported Media Type',
      422: 'Unprocessable Content',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
      504: 'Gateway Timeout',
    };
    for (const [status, phrase] of Object.entries(phrases)) assert.equal(statusTitle(Number(status)), phrase, status);
  });

  it('falls back to a generic phrase by class, 500 being the first server status', () => {
    assert.equal(statusTitle(418), 'Client Error');
    assert.equal(statusTitle(499), 'Client Error');
    assert.equal(statusTitle(500 + 7), 'Server Error');
    assert.equal(statusTitle(599), 'Server Error');
  });
});
