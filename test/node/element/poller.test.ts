// When a flow polls (src/element/poller.ts): multiples of the interval, slower while the page is hidden.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HIDDEN_SLOWDOWN, pollDelay, QUICK_POLLS, QUICK_STEP } from '../../../src/element/poller.js';

describe('pollDelay', () => {
  it('should wait the asked number of intervals on a shown page', () => {
    assert.equal(pollDelay(1, 1000, false), 1000);
    assert.equal(pollDelay(2, 500, false), 1000);
    assert.equal(pollDelay(QUICK_STEP, 1000, false), 300);
    assert.equal(pollDelay(0, 1000, false), 0);
  });

  it('should wait five times longer while the page is hidden', () => {
    assert.equal(HIDDEN_SLOWDOWN, 5);
    assert.equal(pollDelay(1, 1000, true), 5000);
    assert.equal(pollDelay(2, 100, true), 1000);
  });

  it('should poll five times quickly once the connection is known', () => {
    assert.equal(QUICK_POLLS, 5);
    assert.ok(QUICK_STEP < 1);
  });
});
