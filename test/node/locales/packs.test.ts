// Every locale pack (src/locales/<lang>.ts) says every text of both tags with exactly the English placeholders, and
// importing one registers it under its language: on a server too, where it touches neither window nor document
// (this suite runs in Node, which has neither).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { localeFor, PLACEHOLDERS } from '../../../src/element/locales.js';
import { INTEGRATIONS_ENGLISH } from '../../../src/element/integrations-strings.js';
import { ENGLISH } from '../../../src/element/strings.js';

const ENGLISH_TEXTS: Record<string, string> = { ...ENGLISH, ...INTEGRATIONS_ENGLISH };
const LANGS = readdirSync(new URL('../../../src/locales/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3));
/** The languages docs/architecture.md ("Languages and direction") says packs ship for, and English. */
const REQUIRED = ['ar', 'de', 'en', 'es', 'fr', 'he', 'it', 'ja', 'ko', 'nl', 'pl', 'pt-BR', 'sv', 'tr', 'zh-CN'];

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('locale packs', () => {
  it('should ship a pack for every language docs/architecture.md names', () => {
    assert.deepEqual(
      REQUIRED.filter((lang) => !LANGS.includes(lang)),
      [],
    );
  });

  it('should know the English placeholders of every text that has them', () => {
    for (const [key, text] of Object.entries(ENGLISH_TEXTS)) {
      const listed = [...((PLACEHOLDERS as Record<string, readonly string[]>)[key] ?? [])].sort();
      assert.deepEqual(listed, placeholders(text), key);
    }
  });

  for (const lang of LANGS) {
    describe(lang, () => {
      it('should say every text, none empty, with exactly the English placeholders', async () => {
        const { default: pack } = (await import(`../../../src/locales/${lang}.ts`)) as {
          default: Record<string, string>;
        };
        assert.deepEqual(Object.keys(pack).sort(), Object.keys(ENGLISH_TEXTS).sort(), 'keys');
        for (const [key, english] of Object.entries(ENGLISH_TEXTS)) {
          assert.ok(pack[key].trim(), `${key} is empty`);
          assert.deepEqual(placeholders(pack[key]), placeholders(english), `${lang}.${key}: ${pack[key]}`);
        }
      });

      it('should register itself under its language on import', async () => {
        const { default: pack } = await import(`../../../src/locales/${lang}.ts`);
        assert.equal(localeFor(lang), pack);
      });
    });
  }
});
