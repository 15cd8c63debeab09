// What a flow or an element holds until it ends (src/element/lifetime.ts): each timer, request and listener is held
// from when it is taken; one let go of sooner is no longer held and is never released again at the end; a listener
// removed sooner hears nothing more; at the end everything held is released once and nothing is held. The flow's and
// the poller's tests hold the lifetime as they use it; these hold its own rules on node:test's mocked timers.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { Lifetime } from '../../../src/element/lifetime.js';

describe('Lifetime', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('should release what is held once at the end, and not what was let go of sooner', () => {
    const lifetime = new Lifetime();
    const released: string[] = [];
    lifetime.onEnd(() => released.push('kept'));
    const letGo = lifetime.onEnd(() => released.push('let go'));
    assert.equal(lifetime.held, 2);
    letGo();
    assert.equal(lifetime.held, 1);
    lifetime.end();
    lifetime.end();
    assert.deepEqual(released, ['kept']);
    assert.equal(lifetime.held, 0);
    assert.equal(lifetime.ended, true);
  });

  it('should run a timer once when due and hold it no more; one cleared sooner or ended never runs', () => {
    const lifetime = new Lifetime();
    const ran: string[] = [];
    lifetime.setTimer(() => ran.push('due'), 100);
    const clear = lifetime.setTimer(() => ran.push('cleared'), 100);
    lifetime.setTimer(() => ran.push('ended'), 200);
    assert.equal(lifetime.held, 3);
    clear();
    assert.equal(lifetime.held, 2);
    mock.timers.tick(100);
    assert.deepEqual(ran, ['due']);
    assert.equal(lifetime.held, 1);
    lifetime.end();
    mock.timers.tick(100);
    assert.deepEqual(ran, ['due']);
  });

  it('should hold a listener until it is removed sooner or the lifetime ends, then hear nothing more', () => {
    const lifetime = new Lifetime();
    const target = new EventTarget();
    const heard: string[] = [];
    const remove = lifetime.listen(target, 'ping', () => heard.push('removed sooner'));
    lifetime.listen(target, 'ping', () => heard.push('until the end'));
    assert.equal(lifetime.held, 2);
    target.dispatchEvent(new Event('ping'));
    remove();
    assert.equal(lifetime.held, 1);
    target.dispatchEvent(new Event('ping'));
    lifetime.end();
    target.dispatchEvent(new Event('ping'));
    assert.deepEqual(heard, ['removed sooner', 'until the end', 'until the end']);
  });
});
