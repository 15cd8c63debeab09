// The package as a user gets it: npm pack (which builds), publint and
// are-the-types-wrong on the tarball, installs into fresh projects (element
// only, and with React), every entry point imported in Node, the server
// entries bundled for Workers (no node: module), the shipped typings checked
// (the runtimes' snippets of docs/server.md too), the emulator bin run, and
// the element loaded from the tarball's self-contained bundle in a real
// browser. Every child process and wait is bounded, and servers and browsers
// close in finally blocks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import ts from 'typescript';
import { chromium, type Browser } from 'playwright-core';
import { browserPaths } from '../../scripts/browsers.mjs';
import { MACHINE, publicState } from '../../src/element/machine.js';
import { PARTS } from '../../src/element/parts.js';
import { ConnectIntegrations, ConnectProvider } from '../../src/integrations.js';
import { packedPackage, type Packed } from '../shared/pack.js';
import { readmeExamples } from '../node/helpers/readme.js';

const execAsync = promisify(execFile);
/** execFile with a time limit and room for npm's output. */
const exec = (command: string, args: string[], cwd: string, timeout = 120_000) =>
  execAsync(command, args, { cwd, timeout, maxBuffer: 16 * 1024 * 1024 });

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'connect-provider-pack-'));
/** A project that installs only the tarball: what an element-only or server-only user gets. */
const bare = join(work, 'bare');
/** A project with React 19 (and its types), Vue 3 and Svelte 5 besides. */
const app = join(work, 'app');
const npmInstall = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
let tarball = '';
let packed: Packed;

before(
  async () => {
    ({ tarball, packed } = await packedPackage(work));
    for (const [dir, extra] of [
      [bare, []],
      [app, ['react@19', 'react-dom@19', '@types/react@19', 'vue@3', 'svelte@5']],
    ] as const) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
      await exec('npm', [...npmInstall, tarball, ...extra], dir, 300_000);
    }
  },
  { timeout: 600_000 },
);

after(() => rmSync(work, { recursive: true, force: true }));

/** Every package under a project's node_modules (nested and scoped ones too). */
function installedPackages(dir: string): Set<string> {
  const found = new Set<string>();
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
      for (const name of names) {
        found.add(name);
        visit(join(modules, name, 'node_modules'));
      }
    }
  };
  visit(join(dir, 'node_modules'));
  return found;
}

/** lit and everything it depends on, as installed: "lit's family". */
function litFamily(dir: string): Set<string> {
  const family = new Set<string>();
  const add = (name: string) => {
    if (family.has(name)) return;
    family.add(name);
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) add(dependency);
  };
  add('lit');
  return family;
}

/** The names of the element's events: the keys of ConnectEventDetails in events.ts. */
function eventNames(): string[] {
  const source = readFileSync(join(root, 'src/element/events.ts'), 'utf8');
  const block = /interface ConnectEventDetails \{([^}]*)\}/.exec(source)?.[1] ?? '';
  return [...block.matchAll(/'(connect-[a-z-]+)':/g)].map((m) => m[1]!);
}

/**
 * The parts the element renders, read from the templates of the modules that draw it (the element, its form, its
 * Disconnect, its small parts and the link way's block): each `part="name"`, each part named by a call of
 * `renderControl` (or the link block's `control`), whose template takes its part from its first argument, and each
 * `part: 'name'` the link block gives an element it makes.
 */
function renderedParts(): Set<string> {
  const files = ['connect-provider.ts', 'credential-form.ts', 'disconnect.ts', 'parts.ts', 'link-block.ts'].map(
    (name) => {
      const file = join(root, 'src/element', name);
      return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    },
  );
  const nodes = (node: ts.Node): ts.Node[] => [node, ...node.getChildren().flatMap(nodes)];
  const all = files.flatMap(nodes);
  const parts = new Set<string>();
  for (const node of all) {
    if (
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      for (const [, part] of node.text.matchAll(/\bpart=["']?([\w-]+)/g)) parts.add(part!);
    if (ts.isTemplateSpan(node)) {
      const before = node.parent.templateSpans.indexOf(node);
      const text = before === 0 ? node.parent.head.text : node.parent.templateSpans[before - 1]!.literal.text;
      if (/\bpart=["']?$/.test(text))
        assert.equal(node.expression.getText(), 'part', `a part named by \${${node.expression.getText()}} is read`);
    }
    if (ts.isPropertyAssignment(node) && node.name.getText() === 'part' && ts.isStringLiteralLike(node.initializer))
      parts.add(node.initializer.text);
    if (ts.isCallExpression(node) && ['renderControl', 'control'].includes(node.expression.getText())) {
      const [first] = node.arguments;
      assert.ok(first && ts.isStringLiteralLike(first), `renderControl(${first?.getText()}) names its part`);
      parts.add(first.text);
    }
  }
  assert.ok(
    all.some((n) => ts.isMethodDeclaration(n) && n.name.getText() === 'render'),
    'connect-provider.ts has a render()',
  );
  return parts;
}

/** True when the file's first statement is the 'use client' directive (comments before it are allowed). */
function startsWithUseClient(code: string): boolean {
  const first = ts.createSourceFile('entry.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS).statements[0];
  return (
    !!first &&
    ts.isExpressionStatement(first) &&
    ts.isStringLiteral(first.expression) &&
    first.expression.text === 'use client'
  );
}

describe('the packed package', () => {
  it('holds dist/, the manifest, the editor data, the OpenAPI document and no tests', () => {
    const files = packed.files.map((f) => f.path);
    for (const file of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/connect-provider.js',
      'dist/element/react.js',
      'dist/element/frameworks/react-jsx.d.ts',
      'dist/element/frameworks/vue.d.ts',
      'dist/element/frameworks/svelte.d.ts',
      'dist/server/index.js',
      'dist/api/index.js',
      'dist/api/openapi.yaml',
      'dist/emulator/index.js',
      'dist/emulator/cli.js',
      'dist/vscode.html-custom-data.json',
      'dist/vscode.css-custom-data.json',
      'dist/web-types.json',
      'dist/THIRD-PARTY-LICENSES.txt',
      'custom-elements.json',
      'README.md',
      'LICENSE',
    ]) {
      assert.ok(files.includes(file), `${file} is in the tarball`);
    }
    assert.deepEqual(
      files.filter((f) => f.startsWith('test/')),
      [],
      'no tests in the tarball',
    );
    console.log(`# tarball: ${packed.entryCount} files, ${packed.unpackedSize} bytes unpacked`);
  });

  it('ships source maps only where their sources ship too', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const maps = [...files].filter((f) => f.endsWith('.map'));
    assert.ok(maps.length > 0);
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(bare, 'node_modules', 'connect-provider', map), 'utf8')) as {
        sources: string[];
      };
      for (const source of sources) {
        const target = posix.normalize(posix.join(posix.dirname(map), source));
        assert.ok(files.has(target), `${map} points at ${target}, which is in the tarball`);
      }
    }
  });

  it('ships a manifest and editor data that describe the shipped files', () => {
    const installed = join(bare, 'node_modules', 'connect-provider');
    const read = (file: string) => JSON.parse(readFileSync(join(installed, file), 'utf8'));
    const files = new Set(packed.files.map((f) => f.path));
    type Module = {
      path: string;
      declarations?: Array<{ tagName?: string; events?: Array<{ name: string; type?: { text: string } }> }>;
      exports?: Array<{ kind: string; name: string; declaration: { module?: string } }>;
    };
    const manifest = read('custom-elements.json') as { modules: Module[] };
    for (const module of manifest.modules) {
      assert.match(
        module.path,
        /^dist\/.*\.js$/,
        'the manifest names the shipped JavaScript, not the TypeScript source',
      );
      assert.ok(files.has(module.path), `the manifest's module ${module.path} is in the tarball`);
      for (const entry of module.exports ?? []) {
        if (entry.declaration.module)
          assert.ok(
            files.has(entry.declaration.module),
            `${entry.name} points at ${entry.declaration.module}, which ships`,
          );
      }
    }
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'connect-provider');
    const events = element?.events ?? [];
    assert.deepEqual(
      events.map((e) => e.name),
      eventNames(),
      'the manifest lists every event of events.ts, in order',
    );
    assert.equal(events.length, 11);
    for (const event of events)
      assert.match(event.type?.text ?? '', /^CustomEvent<Connect\w+Detail>$/, `${event.name} has its type`);
    const entry = manifest.modules.find((m) => m.path === read('package.json').exports['.'].default.replace('./', ''));
    assert.ok(
      entry?.exports?.some((e) => e.kind === 'custom-element-definition' && e.name === 'connect-provider'),
      'the package entry defines the tag',
    );

    const pkg = read('package.json');
    const webTypes = read(pkg['web-types']);
    const tag = webTypes.contributions.html.elements.find((e: { name: string }) => e.name === 'connect-provider');
    assert.ok(tag.attributes.some((a: { name: string }) => a.name === 'poll-interval'));
    assert.deepEqual(
      tag.js.events.map((e: { name: string }) => e.name),
      events.map((e) => e.name),
    );
    const html = read(pkg.exports['./vscode.html-custom-data.json'].replace('./', ''));
    const vscodeTag = html.tags.find((t: { name: string }) => t.name === 'connect-provider');
    assert.ok(vscodeTag.attributes.some((a: { name: string }) => a.name === 'poll-interval'));
    const css = read(pkg.exports['./vscode.css-custom-data.json'].replace('./', ''));
    assert.ok(css.pseudoElements.some((p: { name: string }) => p.name === '::part(button)'));
  });

  it('describes both tags as they are: each definition, every attribute and property and none internal, every event', () => {
    const installed = join(bare, 'node_modules', 'connect-provider');
    const read = (file: string) => JSON.parse(readFileSync(join(installed, file), 'utf8'));
    type Declaration = {
      name: string;
      tagName?: string;
      customElement?: boolean;
      attributes?: Array<{ name: string }>;
      members?: Array<{ kind: string; name: string; readonly?: boolean }>;
      events?: Array<{ name: string; type?: { text: string } }>;
    };
    type Module = {
      path: string;
      declarations?: Declaration[];
      exports?: Array<{ kind: string; name: string; declaration: { name: string } }>;
    };
    const manifest = read('custom-elements.json') as { modules: Module[] };
    const declarations = manifest.modules.flatMap((m) => m.declarations ?? []);
    const definitions = manifest.modules.flatMap((m) =>
      (m.exports ?? []).filter((e) => e.kind === 'custom-element-definition').map((e) => ({ module: m.path, ...e })),
    );
    for (const definition of definitions)
      assert.equal(
        definition.name,
        declarations.find((d) => d.name === definition.declaration.name)?.tagName,
        `${definition.module} defines ${definition.name} with that tag's class`,
      );
    const pkg = read('package.json');
    const defined = (entry: string) =>
      definitions.filter((d) => `./${d.module}` === pkg.exports[entry].default).map((d) => d.name);
    assert.deepEqual(defined('.'), ['connect-provider'], 'the main entry defines <connect-provider> alone');
    assert.deepEqual(
      defined('./integrations').sort(),
      ['connect-integrations', 'connect-provider'],
      'and /integrations both',
    );

    const vscode = read('dist/vscode.html-custom-data.json') as {
      tags: Array<{ name: string; attributes: Array<{ name: string }> }>;
    };
    const webTypes = read(pkg['web-types']).contributions.html.elements as Array<{
      name: string;
      attributes: Array<{ name: string }>;
      js: { properties: Array<{ name: string }>; events: Array<{ name: string }> };
    }>;
    const names = (list: Array<{ name: string }> = []) => list.map((x) => x.name).sort();
    for (const [tag, element, readOnly, events] of [
      ['connect-provider', ConnectProvider, ['state', 'connection-status'], eventNames()],
      [
        'connect-integrations',
        ConnectIntegrations,
        [],
        ['connect-integrations-loaded', 'connect-integrations-change', 'connect-integrations-error', ...eventNames()],
      ],
    ] as const) {
      const declaration = declarations.find((d) => d.tagName === tag);
      assert.ok(declaration?.customElement, `the manifest declares <${tag}>`);
      // What the element observes, and the attributes it only writes: none of its internal state.
      const attributes = [...element.observedAttributes, ...readOnly].sort();
      assert.deepEqual(names(declaration.attributes), attributes, `the manifest lists <${tag}>'s attributes`);
      assert.deepEqual(names(vscode.tags.find((t) => t.name === tag)?.attributes), attributes, `VS Code: <${tag}>'s`);
      const jetBrains = webTypes.find((e) => e.name === tag);
      assert.deepEqual(names(jetBrains?.attributes), attributes, `web-types: <${tag}>'s attributes`);
      // Its public reactive properties, as settable fields.
      const properties = [...element.elementProperties].filter(([, options]) => !options.state).map(([name]) => name);
      const fields = (declaration.members ?? []).filter((m) => m.kind === 'field' && !m.readonly);
      assert.deepEqual(names(fields), [...properties].map(String).sort(), `the manifest lists <${tag}>'s properties`);
      for (const property of properties)
        assert.ok(
          jetBrains?.js.properties.some((p) => p.name === property),
          `web-types: <${tag}>'s ${String(property)}`,
        );
      // Its events, each typed; the list's include every row's, which leave it.
      assert.deepEqual(
        (declaration.events ?? []).map((e) => e.name),
        events,
        `the manifest lists <${tag}>'s events`,
      );
      for (const event of declaration.events ?? [])
        assert.match(
          event.type?.text ?? '',
          /^CustomEvent<Connect\w+Detail>$/,
          `<${tag}>'s ${event.name} has its type`,
        );
      assert.deepEqual(
        jetBrains?.js.events.map((e) => e.name),
        events,
        `web-types: <${tag}>'s events`,
      );
    }
  });

  it('keeps the React wrapper one client component: a single entry, on servers and in browsers, begins with use client', () => {
    const installed = join(app, 'node_modules', 'connect-provider');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    // A server component's import is resolved on the server and its file sent to the browser: an entry of its own
    // under `node` would run there (scripts/build.mjs, litReactForEitherSide).
    assert.deepEqual(pkg.exports['./react'], {
      types: './dist/element/react.d.ts',
      default: './dist/element/react.js',
    });
    const entry = pkg.exports['./react'].default as string;
    assert.ok(startsWithUseClient(readFileSync(join(installed, entry), 'utf8')), `${entry} begins with 'use client'`);
    // The element entry registers a custom element for client code; the server entries stay free of it.
    for (const entry of [
      pkg.exports['./server'].default,
      pkg.exports['./api'].default,
      pkg.exports['./emulator'].default,
    ])
      assert.ok(!startsWithUseClient(readFileSync(join(installed, entry), 'utf8')), `${entry} is no client module`);
  });

  it('describes every part the element renders, and only those, in the manifest and the editor data', () => {
    const installed = join(bare, 'node_modules', 'connect-provider');
    const read = (file: string) => JSON.parse(readFileSync(join(installed, file), 'utf8'));
    const rendered = renderedParts();
    for (const part of ['button', 'icon', 'status', 'fallback', 'stop', 'field', 'back', 'disconnect', 'keep'])
      assert.ok(rendered.has(part), `render() is read: ${part} found`);
    const sorted = [...rendered].sort();
    const manifest = read('custom-elements.json') as {
      modules: Array<{ declarations?: Array<{ tagName?: string; cssParts?: Array<{ name: string }> }> }>;
    };
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'connect-provider');
    assert.deepEqual((element?.cssParts ?? []).map((p) => p.name).sort(), sorted, 'the manifest has every part');
    assert.deepEqual(PARTS.split(',').sort(), sorted, "the list's rows export every part, under its own name");
    // The list exports its rows' parts under their own names, and has three of its own.
    const list = manifest.modules
      .flatMap((m) => m.declarations ?? [])
      .find((d) => d.tagName === 'connect-integrations');
    const listParts = (list?.cssParts ?? []).map((p) => p.name);
    for (const part of ['row', 'search', 'retry', 'button']) assert.ok(listParts.includes(part), `the list's ${part}`);
    const every = [...new Set([...sorted, ...listParts])].sort();
    const css = read('dist/vscode.css-custom-data.json') as { pseudoElements: Array<{ name: string }> };
    assert.deepEqual(
      [...new Set(css.pseudoElements.map((p) => p.name))].sort(),
      every.map((part) => `::part(${part})`),
      'VS Code CSS data has every part',
    );
    const webTypes = read('dist/web-types.json');
    assert.deepEqual(
      [
        ...new Set((webTypes.contributions.css['pseudo-elements'] as Array<{ name: string }>).map((p) => p.name)),
      ].sort(),
      every.map((part) => `part(${part})`),
      'web-types has every part',
    );
  });

  it('lists state and connection-status as read-only with their values, disconnectable and disconnect()', () => {
    const installed = join(bare, 'node_modules', 'connect-provider');
    const read = (file: string) => JSON.parse(readFileSync(join(installed, file), 'utf8'));
    type Attribute = { name: string; description?: string; type?: { text: string }; fieldName?: string };
    type Member = { kind: string; name: string; readonly?: boolean; type?: { text: string } };
    const manifest = read('custom-elements.json') as {
      modules: Array<{ declarations?: Array<{ tagName?: string; attributes?: Attribute[]; members?: Member[] }> }>;
    };
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'connect-provider');
    const attributes = element?.attributes ?? [];
    const members = element?.members ?? [];
    const union = (text = '') => (/^'[\w-]+'(?: \| '[\w-]+')*$/.test(text) ? text.slice(1, -1).split("' | '") : []);
    const states = [...new Set(Object.keys(MACHINE).map((s) => publicState(s as keyof typeof MACHINE)))];
    const openapi = readFileSync(join(root, 'src/api/openapi.yaml'), 'utf8');
    const statuses = /^ {4}ConnectionStatus:\n(?: {6}.*\n)*? {6}enum: \[([^\]]*)\]/m.exec(openapi)?.[1]?.split(/,\s*/);
    assert.ok(statuses?.length, 'openapi.yaml has the ConnectionStatus enum');
    for (const [name, values] of [
      ['state', states],
      ['connection-status', ['none', ...statuses]],
    ] as const) {
      const attribute = attributes.find((a) => a.name === name);
      assert.ok(attribute, `the manifest lists ${name}`);
      assert.match(attribute.description ?? '', /^Read-only/, `${name} reads as read-only`);
      assert.deepEqual(union(attribute.type?.text).sort(), [...values].sort(), `${name} lists its values`);
    }
    const state = members.find((m) => m.name === 'state');
    assert.equal(state?.readonly, true, 'the state property is read-only');
    assert.deepEqual(union(state?.type?.text).sort(), [...states].sort(), 'the state property lists its values');
    for (const name of ['connection', 'error'])
      assert.equal(members.find((m) => m.name === name)?.readonly, true, `${name} is read-only`);
    assert.ok(!members.some((m) => m.name === 'held'), 'the test hook is not documented');
    assert.ok(attributes.some((a) => a.name === 'disconnectable' && a.type?.text === 'boolean'));
    assert.ok(members.some((m) => m.kind === 'method' && m.name === 'disconnect'));

    const html = read('dist/vscode.html-custom-data.json');
    const tag = html.tags.find((t: { name: string }) => t.name === 'connect-provider');
    const vscodeValues = (name: string) =>
      tag.attributes.find((a: { name: string }) => a.name === name)?.values.map((v: { name: string }) => v.name);
    assert.deepEqual(vscodeValues('state').sort(), [...states].sort());
    assert.deepEqual(vscodeValues('connection-status').sort(), ['none', ...statuses!].sort());
    assert.ok(vscodeValues('disconnectable'), 'VS Code data has disconnectable');
    assert.match(tag.description, /\*\*disconnect\(\): _Promise<void>_\*\*/, 'VS Code data has disconnect()');
    const webTypes = read('dist/web-types.json');
    const element2 = webTypes.contributions.html.elements.find((e: { name: string }) => e.name === 'connect-provider');
    assert.ok(element2.attributes.some((a: { name: string }) => a.name === 'disconnectable'));
    assert.deepEqual(
      element2.js.events.map((e: { name: string }) => e.name),
      eventNames(),
      'web-types has every event',
    );
  });

  it('installs lit and its family and nothing else', () => {
    const installed = installedPackages(bare);
    const expected = new Set(['connect-provider', ...litFamily(bare)]);
    assert.deepEqual([...installed].sort(), [...expected].sort());
    console.log(`# element-only install: ${installed.size} packages (${[...installed].sort().join(', ')})`);
  });

  it('serves ./server, ./api and ./emulator from Node alone: no package import', { timeout: 60_000 }, async () => {
    // A resolve hook records every bare specifier that the package's own files import.
    const hooks = `
      import { isBuiltin } from 'node:module';
      export async function resolve(specifier, context, next) {
        if (context.parentURL?.includes('/node_modules/connect-provider/') && !specifier.startsWith('.') && !isBuiltin(specifier)) {
          console.log('IMPORT ' + specifier);
        }
        return next(specifier, context);
      }`;
    writeFileSync(join(bare, 'hooks.mjs'), hooks);
    const script = `
      import { register } from 'node:module';
      register('./hooks.mjs', import.meta.url);
      const server = await import('connect-provider/server');
      const api = await import('connect-provider/api');
      const { createEmulator } = await import('connect-provider/emulator');
      const emulator = createEmulator();
      const { baseUrl } = await emulator.listen();
      const client = api.createPlatformClient({ baseUrl, apiKey: emulator.apiKey });
      const connection = await client.getConnection({ projectIdOrName: 'demo', connectionId: 'conn_demo' });
      // A request the emulator validates against the OpenAPI document (ajv, inlined in dist/).
      const invalid = await fetch(baseUrl + '/projects', {
        method: 'POST',
        headers: { 'x-api-key': emulator.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 5 }),
      });
      await emulator.close();
      console.log('RESULT ' + JSON.stringify({
        handler: typeof server.createConnectHandler, connection: connection.id,
        invalid: [invalid.status, invalid.headers.get('content-type')],
      }));`;
    writeFileSync(join(bare, 'server-only.mjs'), script);
    const { stdout } = await exec(process.execPath, ['server-only.mjs'], bare, 60_000);
    const imports = stdout.split('\n').filter((l) => l.startsWith('IMPORT '));
    assert.deepEqual(imports, [], 'the server entries import no package');
    const result = JSON.parse(/^RESULT (.*)$/m.exec(stdout)![1]!);
    assert.deepEqual(result, {
      handler: 'function',
      connection: 'conn_demo',
      invalid: [400, 'application/problem+json'],
    });
  });

  it('passes publint', { timeout: 120_000 }, async () => {
    const { stdout } = await exec(
      'npx',
      ['publint', join(app, 'node_modules', 'connect-provider'), '--pack', 'false', '--strict'],
      root,
    );
    assert.match(stdout, /All good/);
  });

  it('passes are-the-types-wrong (ESM only)', { timeout: 120_000 }, async () => {
    await exec('npx', ['attw', tarball, '--profile', 'esm-only'], root);
  });

  it('imports every entry point in Node, the element entries without a DOM', { timeout: 60_000 }, async () => {
    const script = `
      const element = await import('connect-provider');
      const bundle = await import('connect-provider/connect-provider.js');
      const react = await import('connect-provider/react');
      const server = await import('connect-provider/server');
      const node = await import('connect-provider/node');
      const api = await import('connect-provider/api');
      const emulator = await import('connect-provider/emulator');
      const manifest = (await import('connect-provider/custom-elements.json', { with: { type: 'json' } })).default;
      const webTypes = (await import('connect-provider/web-types.json', { with: { type: 'json' } })).default;
      console.log(JSON.stringify({
        element: typeof element.ConnectProvider, tag: element.TAG,
        bundle: bundle.ConnectProvider === element.ConnectProvider,
        react: typeof react.ConnectProvider,
        server: [typeof server.createConnectHandler, typeof server.toNodeListener],
        node: [typeof node.toNodeListener, node.toNodeListener === server.toNodeListener],
        api: typeof api.createPlatformClient,
        emulator: typeof emulator.createEmulator,
        manifestTag: manifest.modules[0].declarations[0].tagName,
        webTypesTag: webTypes.contributions.html.elements[0].name,
        window: typeof window, document: typeof document,
      }));`;
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], app, 60_000);
    assert.deepEqual(JSON.parse(stdout), {
      element: 'function',
      tag: 'connect-provider',
      bundle: true,
      react: 'object',
      server: ['function', 'function'],
      node: ['function', true],
      api: 'function',
      emulator: 'function',
      manifestTag: 'connect-provider',
      webTypesTag: 'connect-provider',
      window: 'undefined',
      document: 'undefined',
    });
  });

  it('resolves connect-provider/connect-provider.js to the bundle in browsers and the SSR-safe entry on servers', async () => {
    const entry = async (platform: 'browser' | 'node') => {
      const result = await build({
        stdin: { contents: "import 'connect-provider/connect-provider.js';", resolveDir: bare },
        bundle: true,
        platform,
        format: 'esm',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const prefix = 'node_modules/connect-provider/';
      return Object.keys(result.metafile.inputs)
        .filter((input) => input.includes(prefix))
        .map((input) => input.slice(input.indexOf(prefix) + prefix.length));
    };
    // The self-contained file, and the link way's chunk it loads only when that way is taken.
    assert.deepEqual((await entry('browser')).sort(), ['dist/connect-provider.js', 'dist/element/link-block.js']);
    assert.ok((await entry('node')).includes('dist/index.js'));
  });

  it('bundles connect-provider/server for Workers with no node: module, as wrangler would', async () => {
    // wrangler's esbuild: the browser platform (a node: module cannot be resolved there) and its export conditions.
    const result = await build({
      stdin: {
        contents:
          "export * from 'connect-provider/server';\nexport { toNodeListener as fromNode } from 'connect-provider/node';",
        resolveDir: bare,
      },
      bundle: true,
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.some((input) => input.endsWith('node_modules/connect-provider/dist/server/handler.js')));
    assert.ok(inputs.some((input) => input.endsWith('node_modules/connect-provider/dist/node.js')));
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    assert.deepEqual(
      imports.filter((path) => path.startsWith('node:')),
      [],
      'no file of either entry imports a node: module',
    );
  });

  it(
    "types the runtimes' snippets of docs/server.md against the shipped declarations",
    { timeout: 120_000 },
    async () => {
      const dir = join(app, 'typed-runtimes');
      mkdirSync(dir, { recursive: true });
      const examples = readmeExamples();
      // Node's and Workers' (Bun's and Deno's name their runtime's globals, whose types are not installed here).
      for (const name of ['connect', 'runtime-node', 'runtime-workers'])
        writeFileSync(join(dir, `${name}.ts`), examples.get(name)!);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            typeRoots: [join(root, 'node_modules/@types')],
          },
        }),
      );
      try {
        await exec(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir, 100_000);
      } catch (error) {
        assert.fail(`tsc over the runtimes' snippets failed:\n${(error as { stdout?: string }).stdout}`);
      }
    },
  );

  it(
    'types the README snippets against the shipped declarations (tsc, vue-tsc, svelte-check)',
    { timeout: 300_000 },
    async () => {
      const compilerOptions = {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM'],
        types: [],
      };
      const fixtures = {
        react: [
          'react/raw-tag.tsx',
          'react/wrapper.tsx',
          'react/integrations-raw-tag.tsx',
          'react/integrations-wrapper.tsx',
          'plain/connect.ts',
          'plain/integrations.ts',
          'plain/properties.ts',
        ],
        vue: ['vue/main.ts', 'vue/App.vue', 'vue/integrations.ts', 'vue/Integrations.vue', 'vue/shims.d.ts'],
        svelte: ['svelte/Connect.svelte', 'svelte/Integrations.svelte', 'svelte/svelte.config.js'],
      };
      for (const [stack, files] of Object.entries(fixtures)) {
        const dir = join(app, `typed-${stack}`);
        mkdirSync(dir, { recursive: true });
        for (const file of files) copyFileSync(join(root, 'test/types', file), join(dir, posix.basename(file)));
        const extra = stack === 'react' ? { jsx: 'react-jsx' } : stack === 'vue' ? { jsx: 'preserve' } : {};
        writeFileSync(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: { ...compilerOptions, ...extra },
            vueCompilerOptions: { strictTemplates: true },
          }),
        );
      }
      const bin = (name: string) => join(root, 'node_modules/.bin', name);
      for (const [stack, command, args] of [
        ['react', bin('tsc'), ['-p', 'tsconfig.json']],
        ['vue', bin('vue-tsc'), ['-p', 'tsconfig.json']],
        ['svelte', bin('svelte-check'), ['--workspace', '.', '--tsconfig', 'tsconfig.json', '--fail-on-warnings']],
      ] as const) {
        try {
          await exec(command, [...args], join(app, `typed-${stack}`), 180_000);
        } catch (error) {
          assert.fail(`${stack}: ${command} over the shipped types failed:\n${(error as { stdout?: string }).stdout}`);
        }
      }
    },
  );

  it('runs the emulator bin, which serves the API', { timeout: 30_000 }, async () => {
    const child = spawn(join(app, 'node_modules', '.bin', 'connect-provider-emulator'), ['--port', '0'], { cwd: app });
    let timer: NodeJS.Timeout | undefined;
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        timer = setTimeout(() => reject(new Error(`the bin did not report its address in 15 s: ${out}`)), 15_000);
        child.stdout.on('data', (c) => {
          out += c;
          const m = /listening on (\S+)/.exec(out);
          if (m && out.includes('bearer token:')) resolve(m[1]!);
        });
        child.on('error', reject);
        child.on('exit', (code) => reject(new Error(`the bin exited with ${code}: ${out}`)));
      });
      const response = await fetch(`${url}/v1/orgs/org_demo/invites`, {
        headers: { 'x-api-key': 'dev-api-key' },
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(response.status, 200);
      assert.equal((await response.json()).length, 3);
    } finally {
      clearTimeout(timer);
      child.kill();
    }
  });

  it('loads the element from the self-contained bundle in Chromium', { timeout: 60_000 }, async () => {
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html><script type="module" src="/node_modules/connect-provider/dist/connect-provider.js"></script>
       <connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`,
    );
    const server: Server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
        /^(\.\.[/\\])+/,
        '',
      );
      const file = join(app, path === '/' ? 'index.html' : path);
      if (!file.startsWith(app) || !existsSync(file) || statSync(file).isDirectory()) {
        res.writeHead(404).end();
        return;
      }
      const type = { '.html': 'text/html', '.js': 'text/javascript' }[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type });
      createReadStream(file).pipe(res);
    });
    let browser: Browser | undefined;
    try {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      browser = await chromium.launch({
        executablePath: browserPaths.chromium,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
        timeout: 30_000,
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeout: 15_000 });
      const label = await page.locator('connect-provider [part=button]').textContent({ timeout: 10_000 });
      assert.equal(label?.trim(), 'Connect Salesforce');
      assert.equal(await page.evaluate(() => typeof customElements.get('connect-provider')), 'function');
      assert.deepEqual(errors, []);
    } finally {
      await browser?.close();
      server.closeAllConnections();
      server.close();
    }
  });

  it('ships a browser bundle with no Node globals in it', () => {
    const shipped = readFileSync(join(app, 'node_modules', 'connect-provider', 'dist', 'connect-provider.js'));
    assert.ok(shipped.length > 1000);
    assert.ok(!shipped.toString().includes('process.env'), 'no Node globals in the browser bundle');
  });
});
