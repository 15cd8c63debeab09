// The shipped typings as users meet them: tsc, vue-tsc, svelte-check and ngc in
// strict mode over fixtures that hold the README's snippets, each followed by
// cases that must not compile (@ts-expect-error / @vue-expect-error), so an
// `any` in the typings fails the run. The documentation (README.md or one of
// docs/*.md) must show each snippet exactly as a fixture holds it (between
// readme:start and readme:end).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;
const TIMEOUT = 120_000;

/** Runs a checker; resolves with its output, rejects with it when the checker reports errors. */
async function check(command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await exec(bin(command), args, {
      cwd: root,
      timeout: TIMEOUT,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout + stderr;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    assert.fail(`${command} ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}

/** A checker's output without its terminal colours (ngc colours its output even into a pipe). */
// eslint-disable-next-line no-control-regex -- the escape character is what the codes begin with
const uncoloured = (text: string) => text.replace(/\x1b\[[\d;]*m/g, '');

describe('the typings, checked as a user of each stack checks them', () => {
  it('React 19: the raw tags and the wrappers in TSX (tsc)', { timeout: TIMEOUT }, async () => {
    await check('tsc', ['-p', 'test/types/react/tsconfig.json']);
  });

  it('Vue 3: the tags in a template (vue-tsc, strictTemplates)', { timeout: TIMEOUT }, async () => {
    await check('vue-tsc', ['-p', 'test/types/vue/tsconfig.json']);
  });

  it('Svelte 5: the tags in markup (svelte-check)', { timeout: TIMEOUT }, async () => {
    const output = await check('svelte-check', [
      '--workspace',
      'test/types/svelte',
      '--tsconfig',
      'tsconfig.json',
      '--fail-on-warnings',
    ]);
    assert.match(output, /found 0 errors and 0 warnings/);
  });

  it('Angular: the tags with CUSTOM_ELEMENTS_SCHEMA (ngc, strictTemplates)', { timeout: TIMEOUT }, async () => {
    await check('ngc', ['-p', 'test/types/angular/tsconfig.json']);
    // Angular has no expect-error in templates: the wrong components must fail, each case for its own reason.
    const wrong = await exec(bin('ngc'), ['-p', 'test/types/angular/tsconfig.wrong.json'], {
      cwd: root,
      timeout: TIMEOUT,
    }).then(
      () => assert.fail('the wrong components compiled: $event is not typed from HTMLElementEventMap'),
      (error: { stdout?: string; stderr?: string }) => uncoloured(`${error.stdout}${error.stderr}`),
    );
    assert.match(wrong, /'nope' is missing in type 'ConnectSuccessDetail'/);
    assert.match(
      wrong,
      /'CustomEvent<ConnectIntegrationsLoadedDetail>' is not assignable to parameter of type 'CustomEvent<\{ integrations: string\[\]; \}>'/,
      "connect-integrations-loaded's $event",
    );
    assert.match(
      wrong,
      /'CustomEvent<ConnectSuccessDetail>' is not assignable to parameter of type 'CustomEvent<\{ provider: number; \}>'/,
      "a row's connect-success, heard on the list",
    );
    assert.match(wrong, /Object is possibly 'null'\.\n\n.*\.connection\.id/, "a row's connection may be null");
  });

  it('plain TypeScript: the elements and their events (tsc)', { timeout: TIMEOUT }, async () => {
    await check('tsc', ['-p', 'test/types/plain/tsconfig.json']);
  });
});

describe('the documentation (README.md, docs/*.md)', () => {
  const files = [
    'README.md',
    ...readdirSync(`${root}docs`)
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const pages = files.map((file) =>
    readFileSync(`${root}${file}`, 'utf8')
      .split('\n')
      .map((line) => line.trim()),
  );
  const fixtures = [
    'test/types/react/raw-tag.tsx',
    'test/types/react/wrapper.tsx',
    'test/types/vue/main.ts',
    'test/types/vue/App.vue',
    'test/types/svelte/Connect.svelte',
    'test/types/plain/connect.ts',
    'test/types/angular/connect.component.ts',
    // <connect-integrations>, in each stack (docs/element.md).
    'test/types/react/integrations-raw-tag.tsx',
    'test/types/react/integrations-wrapper.tsx',
    'test/types/vue/integrations.ts',
    'test/types/vue/Integrations.vue',
    'test/types/svelte/Integrations.svelte',
    'test/types/plain/integrations.ts',
    'test/types/angular/integrations.component.ts',
  ];
  for (const fixture of fixtures) {
    it(`shows ${fixture}'s snippets as tested`, () => {
      const regions = [
        ...readFileSync(`${root}${fixture}`, 'utf8').matchAll(/readme:start.*\n([\s\S]*?)\n.*readme:end/g),
      ];
      assert.ok(regions.length > 0, `${fixture} marks a snippet`);
      for (const [, region] of regions) {
        const lines = region!.split('\n').map((line) => line.trim());
        const found = pages.some((page) => page.some((_, i) => lines.every((line, j) => page[i + j] === line)));
        assert.ok(found, `README.md or a page of docs/ holds these lines of ${fixture} in a row:\n${region}`);
      }
    });
  }
});
