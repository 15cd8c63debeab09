// Which language an element speaks (docs/architecture.md, "Languages and direction"), the choice itself without a
// browser: the `lang` that applies is the element's own, else the nearest ancestor's across shadow roots (a shadow
// root leads to its host), else <html lang> (the top of the chain); the pack is the best registered match for it: the
// tag itself (any case), else its language, else a region of that language; none (so the built-in English) when no
// pack matches. Moved from test/browser/element-locales.test.ts, which keeps what needs a page: a row of the list
// across a real shadow root, a re-render when `lang` changes or a pack registers later, `strings` over the pack.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { langOf, localeFor, registerLocale } from '../../../src/element/locales.js';

// Packs that say which one was chosen: the rule is the choice, not what a pack says.
registerLocale('xa', { connect: 'xa {provider}' });
registerLocale('xb-BR', { connect: 'xb-BR {provider}' });
registerLocale('xc', { connect: 'xc {provider}' });

/** A node as langOf reads it: its `lang` ('' when none), its parent, and a shadow root's host. */
interface FakeNode {
  lang?: string;
  parentNode: FakeNode | null;
  host?: FakeNode;
}
/** A chain from the outermost node inwards (each one the parent of the next), the innermost returned as an Element. */
function chain(...langs: Array<string | 'shadow-root'>): Element {
  let parent: FakeNode | null = null;
  for (const lang of langs) {
    // A shadow root has no `lang` and no parent: it leads to its host.
    parent = lang === 'shadow-root' ? { parentNode: null, host: parent! } : { lang, parentNode: parent };
  }
  return parent as unknown as Element;
}

const chosen = (element: Element) => localeFor(langOf(element))?.connect;

describe('the language an element speaks', () => {
  it('should speak English (no pack) when no pack matches its language', () => {
    assert.equal(localeFor('fi'), undefined);
    assert.equal(chosen(chain('', '', 'fi')), undefined);
  });

  it("should use its own lang before its ancestor's", () => {
    assert.equal(langOf(chain('', 'xc', 'xa')), 'xa');
    assert.equal(chosen(chain('', 'xc', 'xa')), 'xa {provider}');
  });

  it("should use the nearest ancestor's lang", () => {
    assert.equal(langOf(chain('', 'xc', 'xa', '')), 'xa');
    assert.equal(langOf(chain('xc', '', '', '')), 'xc');
  });

  it('should use <html lang> when nothing nearer says, and none when nothing says', () => {
    assert.equal(chosen(chain('xc', '', '', '')), 'xc {provider}');
    assert.equal(langOf(chain('', '', '')), '');
  });

  it('should go on from a shadow root to its host', () => {
    assert.equal(langOf(chain('xa', '', 'shadow-root', '')), 'xa');
    assert.equal(langOf(chain('xc', 'shadow-root', 'xa')), 'xa');
  });

  it('should fall back from a region to its language, and from a language to a region of it, in any case', () => {
    assert.equal(localeFor('xa-AT')?.connect, 'xa {provider}');
    assert.equal(localeFor('xb')?.connect, 'xb-BR {provider}');
    assert.equal(localeFor('XB-br')?.connect, 'xb-BR {provider}');
    assert.equal(localeFor('xd-BR'), undefined);
  });
});
