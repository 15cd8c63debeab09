// When a flow polls (src/element/poller.ts): multiples of the interval, slower while the page is hidden, one poll at
// a time and one waiting at most, quick at first, at once when the page shows again, never after the flow ended.
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { Lifetime } from '../../../src/element/lifetime.js';
import { pollDelay, Poller } from '../../../src/element/poller.js';
import { HIDDEN_SLOWDOWN, QUICK_POLLS, QUICK_STEP } from '../../../src/element/timing.js';

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

// The Poller on mocked timers (node:test's), with the page's visibility as its one input from the browser.
describe('Poller', () => {
  const page = { hidden: false };
  let polls: number;
  /** The poll in flight ends when the test calls this. */
  let finishPoll: () => void;
  const poll = () => {
    polls++;
    return new Promise<void>((resolve) => (finishPoll = resolve));
  };
  /** Lets the microtasks of an ended poll run (its `finally`). */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

  beforeEach(() => {
    polls = 0;
    page.hidden = false;
    Object.defineProperty(globalThis, 'document', { value: page, configurable: true });
    mock.timers.enable({ apis: ['setTimeout'] });
  });
  afterEach(() => {
    mock.timers.reset();
    Reflect.deleteProperty(globalThis, 'document');
  });

  it('should poll after the intervals asked, five times slower while the page is hidden', () => {
    const poller = new Poller(new Lifetime(), 1000, poll);
    poller.pollAfter(2);
    mock.timers.tick(1999);
    assert.equal(polls, 0);
    mock.timers.tick(1);
    assert.equal(polls, 1);
    page.hidden = true;
    const hidden = new Poller(new Lifetime(), 1000, poll);
    hidden.pollAfter(1);
    mock.timers.tick(4999);
    assert.equal(polls, 1);
    mock.timers.tick(1);
    assert.equal(polls, 2);
  });

  it('should keep one poll waiting at most: a new one replaces it', () => {
    const poller = new Poller(new Lifetime(), 1000, poll);
    poller.pollAfter(1);
    poller.pollAfter(3);
    mock.timers.tick(2999);
    assert.equal(polls, 0, 'the first wait was replaced');
    mock.timers.tick(1);
    assert.equal(polls, 1);
    poller.pollAfter(1);
    poller.pollNow();
    mock.timers.tick(0);
    assert.equal(polls, 1, 'the poll in flight is not doubled');
    mock.timers.tick(5000);
    assert.equal(polls, 1, 'the due poll waits while one is in flight');
  });

  it('should run a poll due while another is in flight once that one ended', async () => {
    const poller = new Poller(new Lifetime(), 1000, poll);
    poller.pollNow();
    mock.timers.tick(0);
    poller.pollNow();
    mock.timers.tick(200);
    assert.equal(polls, 1);
    finishPoll();
    await settle();
    mock.timers.tick(50);
    assert.equal(polls, 2, 'the due poll ran within 50 ms of the end of the first');
  });

  it('should poll quickly five times once started quick, then every interval', async () => {
    const poller = new Poller(new Lifetime(), 1000, poll);
    poller.startQuick();
    const waits: number[] = [];
    for (let i = 0; i < QUICK_POLLS + 2; i++) {
      poller.pollAgain();
      let waited = 0;
      for (const before = polls; polls === before && waited < 10_000; waited += 100) mock.timers.tick(100);
      waits.push(waited);
      finishPoll();
      await settle();
    }
    assert.deepEqual(waits, [300, 300, 300, 300, 300, 1000, 1000]);
  });

  it('should run a waiting poll at once when the page shows again, and none when none waits', () => {
    page.hidden = true;
    const poller = new Poller(new Lifetime(), 1000, poll);
    poller.pageShown();
    mock.timers.tick(10_000);
    assert.equal(polls, 0, 'nothing was waiting');
    poller.pollAfter(1);
    page.hidden = false;
    poller.pageShown();
    mock.timers.tick(0);
    assert.equal(polls, 1);
    mock.timers.tick(10_000);
    assert.equal(polls, 1, 'the hidden wait was replaced, not kept');
  });

  it('should poll no more once its lifetime ended', () => {
    const lifetime = new Lifetime();
    const poller = new Poller(lifetime, 1000, poll);
    poller.pollAfter(1);
    lifetime.end();
    poller.pollNow();
    mock.timers.tick(10_000);
    assert.equal(polls, 0);
  });
});
