// The shipped typings as users meet them: tsc, vue-tsc, svelte-check and ngc in
// strict mode over fixtures that hold the README's snippets (and, for Angular,
// an SSR app's server), each followed by
// cases that must not compile (@ts-expect-error / @vue-expect-error), so an
// `any` in the typings fails the run. The documentation (README.md or one of
// docs/*.md) must show each snippet exactly as a fixture holds it (between
// readme:start and readme:end).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;
/**
 * The Angular app's own tools (test/types/angular, with its own lock file): Angular 22's ngc and the TypeScript 6.0 it
 * needs. Not in the repository's lock: Angular 22 asks for Node 22 and TypeScript 6.0, where the package builds with
 * TypeScript 5.9 and its tooling runs on Node 20 (whose `npm ci` would warn once per Angular and Babel package).
 * Installed here when missing; ngc 22 runs on Node 20.
 */
const angular = `${root}test/types/angular/`;
const angularBin = (name: string) => `${angular}node_modules/.bin/${name}`;

/** Installs the Angular app's locked packages once (a fresh clone has none); its engine warnings are not ours. */
async function installAngular(): Promise<void> {
  if (existsSync(`${angular}node_modules/.package-lock.json`)) return;
  await exec('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: angular, timeout: 5 * TIMEOUT });
}
const TIMEOUT = 120_000;

/** Runs a checker (a file of node_modules/.bin); resolves with its output, rejects with it when it reports errors. */
async function check(command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await exec(command, args, {
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

/** Runs a checker that must fail; resolves with its output without colours. */
async function checkFails(command: string, args: string[], why: string): Promise<string> {
  return exec(command, args, { cwd: root, timeout: TIMEOUT, maxBuffer: 16 * 1024 * 1024 }).then(
    () => assert.fail(`${command} ${args.join(' ')} passed: ${why}`),
    (error: { stdout?: string; stderr?: string }) => uncoloured(`${error.stdout}${error.stderr}`),
  );
}

/** The version of a package the Angular app resolves, from its own folder. */
const versionIn = (dir: string, name: string): string =>
  (JSON.parse(readFileSync(createRequire(dir).resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;

/** A checker's output without its terminal colours (ngc colours its output even into a pipe). */
// eslint-disable-next-line no-control-regex -- the escape character is what the codes begin with
const uncoloured = (text: string) => text.replace(/\x1b\[[\d;]*m/g, '');

describe('the typings, checked as a user of each stack checks them', () => {
  it('React 19: the raw tags and the wrappers in TSX (tsc)', { timeout: TIMEOUT }, async () => {
    await check(bin('tsc'), ['-p', 'test/types/react/tsconfig.json']);
  });

  it('Vue 3: the tags in a template (vue-tsc, strictTemplates)', { timeout: TIMEOUT }, async () => {
    await check(bin('vue-tsc'), ['-p', 'test/types/vue/tsconfig.json']);
  });

  it('Svelte 5: the tags in markup (svelte-check)', { timeout: TIMEOUT }, async () => {
    const output = await check(bin('svelte-check'), [
      '--workspace',
      'test/types/svelte',
      '--tsconfig',
      'tsconfig.json',
      '--fail-on-warnings',
    ]);
    assert.match(output, /found 0 errors and 0 warnings/);
  });

  it(
    "Angular 22: the tags with CUSTOM_ELEMENTS_SCHEMA, and an SSR app's server (ngc under a new app's tsconfig)",
    { timeout: 3 * TIMEOUT },
    async () => {
      await installAngular();
      // The app's own compiler: Angular 22 and the TypeScript 6.0 it requires (the package itself builds with 5.9).
      assert.match(versionIn(angular, '@angular/compiler-cli'), /^22\./, 'ngc of Angular 22');
      assert.match(versionIn(`${angular}node_modules/@angular/compiler-cli/`, 'typescript'), /^6\.0\./);
      // The app imports the package's declarations, as an app with skipLibCheck does, not its sources: the app's
      // noPropertyAccessFromIndexSignature holds the fixtures, not the package's code.
      rmSync(`${root}node_modules/.cache/connect-provider-types`, { recursive: true, force: true });
      await check(bin('tsc'), ['-p', 'test/types/angular/tsconfig.declarations.json']);
      await check(angularBin('ngc'), ['-p', 'test/types/angular/tsconfig.json']);

      // Angular has no expect-error in templates: the wrong components must fail, each case for its own reason.
      const wrong = await checkFails(
        angularBin('ngc'),
        ['-p', 'test/types/angular/tsconfig.wrong.json'],
        'the wrong components compiled: $event is not typed from HTMLElementEventMap',
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

      // The server's mistakes are TypeScript's own errors (ngc reports those alone when there are any, so they
      // get a run of their own, by the app's TypeScript).
      const server = await checkFails(
        angularBin('tsc'),
        ['-p', 'test/types/angular/tsconfig.wrong-server.json'],
        "the wrong server compiled: is noPropertyAccessFromIndexSignature off in the app's tsconfig?",
      );
      assert.match(
        server,
        /Property 'PLATFORM_API_KEY' comes from an index signature, so it must be accessed with \['PLATFORM_API_KEY'\]/,
      );
      assert.match(server, /Type 'string' is not assignable to type 'readonly string\[\]'/, 'allowedHosts is a list');
    },
  );

  it('plain TypeScript: the elements and their events (tsc)', { timeout: TIMEOUT }, async () => {
    await check(bin('tsc'), ['-p', 'test/types/plain/tsconfig.json']);
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
    'test/types/angular/server.ts',
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

describe('the events tables of docs/frameworks.md (Angular) and docs/element.md', () => {
  it('gives each event of both tags its $event type, under the name and entry that export it', () => {
    // The table: | `(event)` | `CustomEvent<Type>` | `entry` |
    const page = readFileSync(`${root}docs/frameworks.md`, 'utf8');
    const rows = new Map(
      [...page.matchAll(/^\| `\((connect-[a-z-]+)\)` +\| `CustomEvent<(\w+)>` +\| `([\w/-]+)` +\|$/gm)].map(
        ([, event, type, entry]) => [event!, `${type} from ${entry}`],
      ),
    );
    // The events as the sources declare them: the element's one map (ConnectEventDetails), the list's own three.
    const events = readFileSync(`${root}src/element/events.ts`, 'utf8');
    const map = events.slice(events.indexOf('export interface ConnectEventDetails {'));
    const declared = new Map(
      [...map.slice(0, map.indexOf('}')).matchAll(/'(connect-[a-z-]+)': (\w+);/g)].map(([, event, type]) => [
        event!,
        `${type} from connect-provider`,
      ]),
    );
    const list = readFileSync(`${root}src/element/integrations-events.ts`, 'utf8');
    const listMap = list.slice(list.indexOf('export interface IntegrationsEventDetails {'));
    for (const [, event, type] of listMap
      .slice(0, listMap.indexOf('}'))
      .matchAll(/'(connect-integrations-[a-z]+)': (\w+);/g))
      declared.set(event!, `${type} from connect-provider/integrations`);
    assert.ok(declared.size >= 14, `${declared.size} events declared`);
    assert.deepEqual(rows, declared);

    // docs/element.md names the same types: the element's table (last column), the list's events (after the detail).
    const reference = readFileSync(`${root}docs/element.md`, 'utf8');
    const named = new Map([
      ...[...reference.matchAll(/^\| `(connect-[a-z-]+)` +\|.*\| `(\w+)` +\|$/gm)].map(
        ([, event, type]) => [event!, `${type} from connect-provider`] as const,
      ),
      ...[...reference.matchAll(/^- `(connect-integrations-[a-z]+)` `\{[^`]*\}`\s+\(`(\w+)`\)/gm)].map(
        ([, event, type]) => [event!, `${type} from connect-provider/integrations`] as const,
      ),
    ]);
    assert.deepEqual(named, declared, 'docs/element.md names each detail type as the sources declare it');

    // Each type is exported by the entry the table names, as the compiler reads the entry.
    const entries = { 'connect-provider': 'src/index.ts', 'connect-provider/integrations': 'src/integrations.ts' };
    const program = ts.createProgram(
      Object.values(entries).map((file) => `${root}${file}`),
      { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] },
    );
    const checker = program.getTypeChecker();
    for (const [entry, file] of Object.entries(entries)) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(`${root}${file}`)!)!;
      const exported = new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
      for (const [event, row] of rows) {
        const [type, from] = row.split(' from ');
        if (from === entry) assert.ok(exported.has(type!), `${entry} exports ${type} (${event})`);
      }
    }
  });
});
