// custom-elements.json reads the element's types, not its text (custom-elements-manifest.config.mjs): each event's
// type is the one the compiler gives HTMLElementEventMap once events.ts augments it, however its lines are laid out,
// and a class's internal members (its `static properties` entries with `state: true`, its `private` and `#` members)
// are derived from the class, so they stay out of the manifest under any name; the analyzer reads `static properties`
// declared `as const` as the object it is, and a field set from a constant shows the constant's value.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import ts from 'typescript';
import {
  eventTypes,
  internalMembers,
  literalDefaults,
  sourcesForAnalyzer,
} from '../../../custom-elements-manifest.config.mjs';

const dir = mkdtempSync(join(tmpdir(), 'manifest-types-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the manifest: event types', () => {
  it("types the list's events from its own map, integrations-events.ts", () => {
    const types = eventTypes('src/element/integrations-events.ts');
    assert.equal(types['connect-integrations-loaded'], 'CustomEvent<ConnectIntegrationsLoadedDetail>');
    assert.equal(types['connect-integrations-change'], 'CustomEvent<ConnectIntegrationsChangeDetail>');
    assert.equal(types['connect-integrations-error'], 'CustomEvent<ConnectIntegrationsErrorDetail>');
  });

  it("types every event of events.ts's one map as a CustomEvent of its detail", () => {
    const types = eventTypes();
    assert.equal(types['connect-success'], 'CustomEvent<ConnectSuccessDetail>');
    assert.equal(types['connect-popup-blocked'], 'CustomEvent<ConnectPopupDetail>');
    assert.deepEqual(Object.keys(types).sort(), [
      'connect-cancel',
      'connect-connection',
      'connect-disconnect',
      'connect-error',
      'connect-link',
      'connect-loaded',
      'connect-popup',
      'connect-popup-blocked',
      'connect-start',
      'connect-status',
      'connect-success',
    ]);
  });

  it('reads a member written over several lines, or listed in the global map by hand', () => {
    const file = join(dir, 'events.ts');
    writeFileSync(
      file,
      `export interface WideDetail { provider: string }
       export interface Details {
         'connect-wide':
           WideDetail;
       }
       type Map = { [K in keyof Details]: CustomEvent<Details[K]> };
       declare global {
         interface HTMLElementEventMap extends Map {
           'connect-by-hand'
             : CustomEvent<
                 WideDetail
               >;
         }
       }`,
    );
    const types = eventTypes(file);
    assert.equal(types['connect-wide'], 'CustomEvent<WideDetail>');
    assert.equal(types['connect-by-hand'], 'CustomEvent<WideDetail>');
  });
});

describe('the manifest: internal members', () => {
  it('holds the state entries and the private members of each class, and nothing public', () => {
    const file = join(dir, 'element.ts');
    writeFileSync(
      file,
      `class A {
         static properties = {
           endpoint: {},
           label: { attribute: 'label', state: false },
           rows: { state: true },
           'picked': { type: Number, state: true },
         } as const;
         endpoint = '';
         private controller = {};
         #hidden = 1;
         private read(): void {}
         #write(): void {}
         protected kept = 0;
       }
       class B { static properties = { open: { state: true } }; }`,
    );
    const internal = internalMembers(file);
    assert.deepEqual([...internal.get('A')!].sort(), ['#hidden', '#write', 'controller', 'picked', 'read', 'rows']);
    assert.deepEqual([...internal.get('B')!], ['open']);
  });

  it("finds the list's state in connect-integrations.ts", () => {
    const internal = internalMembers('src/element/connect-integrations.ts').get('ConnectIntegrations')!;
    for (const name of ['query', 'attentionOnly', '#read', '#rows']) assert.ok(internal.has(name), name);
    assert.ok(!internal.has('endpoint'));
  });
});

describe('the manifest: what the analyzer reads', () => {
  it('reads static properties declared as const as the bare object, every position kept', () => {
    const file = join(dir, 'as-const.ts');
    const text = `class A {\n  static properties = {\n    endpoint: {},\n  } as const;\n  other = [1] as const;\n}\n`;
    writeFileSync(file, text);
    const [source] = sourcesForAnalyzer({ ts, globs: [file] });
    assert.equal(source!.text.length, text.length);
    assert.match(source!.text, /^ {2}\} {9};$/m);
    assert.match(source!.text, /other = \[1\] as const;/, 'only the properties initializer changes');
  });

  it("shows a field's default set from a constant as its value, and a literal as written", () => {
    const file = join(dir, 'defaults.ts');
    writeFileSync(
      file,
      `const BOUNDS = { timeout: [1000, 3600000, 300000] } as const;
       export class A {
         timeout: number = BOUNDS.timeout[2];
         label = '';
         on = false;
         list: number[] = [];
       }`,
    );
    const fields = literalDefaults([file]).get('A')!;
    assert.equal(fields.get('timeout'), '300000');
    assert.equal(fields.has('label'), false, 'written as a literal');
    assert.equal(fields.has('on'), false, 'written as a literal');
    assert.equal(fields.has('list'), false, 'no literal value');
  });
});
