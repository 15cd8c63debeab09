// Which way an element writes (docs/architecture.md, "Languages and direction"), the choice itself without a browser:
// the `dir` that applies is the element's own, else the nearest ancestor's across shadow roots (a shadow root leads
// to its host), else none; a language written right to left is one of the listed tags, as a whole subtag, in any
// case. The element reads a pack of such a language right to left where the page sets no `dir`; the rendering is
// test/browser's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dirOf, isRightToLeft } from '../../../src/element/locales.js';

/** A node as dirOf reads it: its `dir` ('' when none), its parent, and a shadow root's host. */
interface FakeNode {
  dir?: string;
  parentNode: FakeNode | null;
  host?: FakeNode;
}
/** A chain from the outermost node inwards (each one the parent of the next), the innermost returned as an Element. */
function chain(...dirs: Array<string | 'shadow-root'>): Element {
  let parent: FakeNode | null = null;
  for (const dir of dirs) {
    // A shadow root has no `dir` and no parent: it leads to its host.
    parent = dir === 'shadow-root' ? { parentNode: null, host: parent! } : { dir, parentNode: parent };
  }
  return parent as unknown as Element;
}

describe('the direction an element writes in', () => {
  it("should use its own dir before its ancestor's", () => {
    assert.equal(dirOf(chain('ltr', 'rtl')), 'rtl');
  });

  it("should use the nearest ancestor's dir, else <html dir>, and none when nothing says", () => {
    assert.equal(dirOf(chain('ltr', 'rtl', '', '')), 'rtl');
    assert.equal(dirOf(chain('rtl', '', '')), 'rtl');
    assert.equal(dirOf(chain('', '', '')), '');
  });

  it('should go on from a shadow root to its host', () => {
    assert.equal(dirOf(chain('rtl', '', 'shadow-root', '')), 'rtl');
    assert.equal(dirOf(chain('ltr', 'shadow-root', 'rtl')), 'rtl');
  });
});

describe('a language written right to left', () => {
  const RIGHT_TO_LEFT = ['ar', 'he', 'iw', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug'];

  it('should be each listed language, alone or with a region or script, in any case', () => {
    for (const lang of RIGHT_TO_LEFT) {
      assert.ok(isRightToLeft(lang), lang);
      assert.ok(isRightToLeft(`${lang}-XX`), `${lang}-XX`);
      assert.ok(isRightToLeft(lang.toUpperCase()), lang.toUpperCase());
    }
    assert.ok(isRightToLeft('ar-EG'));
    assert.ok(isRightToLeft('He-il'));
  });

  it('should not be a language written left to right, nor one whose tag only begins or ends with a listed one', () => {
    for (const lang of ['', 'en', 'de-AT', 'fi', 'pt-BR'] as const) assert.ok(!isRightToLeft(lang), lang);
    // Mapuche, Herero and Fang, written left to right: their tags begin with ar, he and fa.
    for (const lang of ['arn', 'her', 'fan', 'arn-CL'] as const) assert.ok(!isRightToLeft(lang), lang);
    // A listed tag later in the tag is a region or a variant, not the language.
    assert.ok(!isRightToLeft('en-ar'));
    assert.ok(!isRightToLeft('x-he'));
  });
});
