// When an element speaks again (docs/architecture.md, "Languages and direction"): a pack that registers, or a `lang`
// or `dir` attribute that changes anywhere in the document, calls every element's listener; the page has one
// MutationObserver for it, made by the first element that listens, and an element that stops hears nothing more.
// The page's MutationObserver and document are fakes installed for the file (node:test runs each file in its own
// process, so the registry starts empty here); a real one re-rendering is test/browser's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { onLocaleChange, registerLocale } from '../../../src/element/locales.js';

/** Each MutationObserver the page made: what it observes, with which options, and its callback. */
const observers: { callback: () => void; observed: { target: unknown; options: unknown }[] }[] = [];
class FakeMutationObserver {
  #made = { callback: () => {}, observed: [] as { target: unknown; options: unknown }[] };
  constructor(callback: () => void) {
    this.#made.callback = callback;
    observers.push(this.#made);
  }
  observe(target: unknown, options: unknown): void {
    this.#made.observed.push({ target, options });
  }
}
const fakeDocument = { title: 'the page' };

describe('an element told its language may have changed', () => {
  before(() => {
    Object.assign(globalThis, { MutationObserver: FakeMutationObserver, document: fakeDocument });
  });
  after(() => {
    Reflect.deleteProperty(globalThis, 'MutationObserver');
    Reflect.deleteProperty(globalThis, 'document');
  });

  it("should watch the whole document's lang and dir with one observer, made by the first element that listens", () => {
    assert.equal(observers.length, 0, 'none before an element listens');
    const stops = [onLocaleChange(() => {}), onLocaleChange(() => {}), onLocaleChange(() => {})];
    assert.equal(observers.length, 1, 'one observer for the page');
    assert.deepEqual(observers[0]!.observed, [
      { target: fakeDocument, options: { attributeFilter: ['lang', 'dir'], subtree: true } },
    ]);
    for (const stop of stops) stop();
    onLocaleChange(() => {})();
    assert.equal(observers.length, 1, 'none made again once every element stopped');
  });

  it('should call every listening element when an attribute changes, and when a pack registers', () => {
    const heard: string[] = [];
    const stopA = onLocaleChange(() => heard.push('a'));
    const stopB = onLocaleChange(() => heard.push('b'));
    observers[0]!.callback();
    assert.deepEqual(heard, ['a', 'b']);
    registerLocale('xa', { connect: 'xa {provider}' });
    assert.deepEqual(heard, ['a', 'b', 'a', 'b']);
    stopA();
    stopB();
  });

  it("should keep the page's packs where another copy of the module finds them (Symbol.for)", () => {
    registerLocale('xc', { connect: 'xc {provider}' });
    const shared = (globalThis as Record<symbol, { packs: Record<string, unknown> } | undefined>)[
      Symbol.for('connect-provider.locales')
    ];
    assert.deepEqual(shared?.packs.xc, { connect: 'xc {provider}' });
  });

  it('should call an element that stopped no more, and still the others', () => {
    const heard: string[] = [];
    const stopA = onLocaleChange(() => heard.push('a'));
    const stopB = onLocaleChange(() => heard.push('b'));
    stopA();
    observers[0]!.callback();
    registerLocale('xb', { connect: 'xb {provider}' });
    assert.deepEqual(heard, ['b', 'b']);
    stopB();
    observers[0]!.callback();
    assert.deepEqual(heard, ['b', 'b']);
  });
});
