// @custom-elements-manifest/analyzer: custom-elements.json for the element,
// then the editor data generated from it (npm run build):
//   dist/vscode.html-custom-data.json, dist/vscode.css-custom-data.json  VS Code
//   dist/web-types.json                                                   JetBrains
// The cleanup plugin drops what static analysis gets wrong here: the internal
// reactive state (a `static properties` entry with `state: true`) and the
// private members (`private`, `#name`), read from each class by the TypeScript
// compiler, and the variable `type` of the private emit() helper seen as an
// event. It also types the events from HTMLElementEventMap as the compiler
// sees it with events.ts, shows a default set from a constant as its value,
// gives the list its rows' events (they leave it), names each tag's
// definition, points module paths at what the package ships (dist/**/*.js,
// not src/**/*.ts), and adds the package's entry modules. The analyzer reads
// `static properties = {...} as const` as the bare object (sourcesForAnalyzer).
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';
import { customElementVsCodePlugin } from 'custom-element-vs-code-integration';
import { customElementJetBrainsPlugin } from 'custom-element-jet-brains-integration';

/**
 * 'connect-success' -> 'CustomEvent<ConnectSuccessDetail>': the `connect-*` members of HTMLElementEventMap as the
 * compiler types them once events.ts augments it (with the project's compiler options), whatever the file's layout.
 */
export function eventTypes(file = 'src/element/events.ts') {
  const { config } = ts.readConfigFile('tsconfig.json', ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, '.');
  const program = ts.createProgram([file], { ...options, types: [], noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`custom-elements.json: ${file} not found`);
  const map = checker
    .getSymbolsInScope(source, ts.SymbolFlags.Interface)
    .find((symbol) => symbol.name === 'HTMLElementEventMap');
  if (!map) throw new Error('custom-elements.json: HTMLElementEventMap not found');
  const types = {};
  for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(map))) {
    if (!member.name.startsWith('connect-')) continue;
    const type = checker.getTypeOfSymbolAtLocation(member, source);
    types[member.name] = checker.typeToString(type, source, ts.TypeFormatFlags.NoTruncation);
  }
  return types;
}

/** A `static properties = {...}` initializer without its `as const` or `satisfies`. */
function objectLiteral(node) {
  while (node && (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)))
    node = node.expression;
  return node && ts.isObjectLiteralExpression(node) ? node : undefined;
}

const nameOf = (name) =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name) ? name.text : undefined;

/**
 * Class name -> the names of its members that are no part of its public surface, read from the source by the
 * compiler: every `static properties` entry declared `{ state: true }` (internal reactive state), and every member
 * that is `private` or `#private`.
 */
export function internalMembers(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const internal = new Map();
  const visit = (node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      const names = new Set();
      for (const member of node.members) {
        const name = member.name && nameOf(member.name);
        if (!name) continue;
        const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
        if (ts.isPrivateIdentifier(member.name) || modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword))
          names.add(name);
        const isStatic = modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (!isStatic || name !== 'properties' || !ts.isPropertyDeclaration(member)) continue;
        for (const entry of objectLiteral(member.initializer)?.properties ?? []) {
          if (!ts.isPropertyAssignment(entry)) continue;
          const state = objectLiteral(entry.initializer)?.properties.some(
            (option) =>
              ts.isPropertyAssignment(option) &&
              nameOf(option.name) === 'state' &&
              option.initializer.kind === ts.SyntaxKind.TrueKeyword,
          );
          const entryName = nameOf(entry.name);
          if (state && entryName) names.add(entryName);
        }
      }
      internal.set(node.name.text, names);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return internal;
}

/**
 * The sources the analyzer reads, each `static properties = {...} as const` (or `satisfies ...`) read as the bare
 * object literal: the analyzer's Lit support knows the declaration only in that form, and without it would list none
 * of the element's attributes. The `as const` is blanked out (spaces), so every position stays where it was.
 */
export function sourcesForAnalyzer({ ts: analyzerTs, globs }) {
  return globs.map((path) => {
    let text = readFileSync(path, 'utf8');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const blanks = [];
    const visit = (node) => {
      if (
        ts.isPropertyDeclaration(node) &&
        node.name.getText(source) === 'properties' &&
        node.initializer &&
        (ts.isAsExpression(node.initializer) || ts.isSatisfiesExpression(node.initializer))
      )
        blanks.push([node.initializer.expression.end, node.initializer.end]);
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const [start, end] of blanks.reverse())
      text = text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
    return analyzerTs.createSourceFile(path, text, analyzerTs.ScriptTarget.ES2015, true);
  });
}

/**
 * Class name -> field name -> the value of its initializer where the compiler knows it as a literal (a field set
 * from a constant, `= TIMING_BOUNDS.timeout[2]`, is `300000`), so the manifest shows the default, not an expression.
 */
export function literalDefaults(paths) {
  const { config } = ts.readConfigFile('tsconfig.json', ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, '.');
  const program = ts.createProgram(paths, { ...options, types: [], noEmit: true });
  const checker = program.getTypeChecker();
  const defaults = new Map();
  for (const path of paths) {
    const source = program.getSourceFile(path);
    const visit = (node) => {
      if (ts.isClassDeclaration(node) && node.name) {
        const fields = new Map();
        for (const member of node.members) {
          if (!ts.isPropertyDeclaration(member) || !member.initializer || !ts.isIdentifier(member.name)) continue;
          // A literal written as such is shown as written.
          if (ts.isLiteralExpression(member.initializer) || ts.isPrefixUnaryExpression(member.initializer)) continue;
          if ([ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword].includes(member.initializer.kind)) continue;
          const type = checker.getTypeAtLocation(member.initializer);
          if (type.isLiteral() || type.flags & ts.TypeFlags.BooleanLiteral)
            fields.set(member.name.text, checker.typeToString(type));
        }
        defaults.set(node.name.text, fields);
      }
      ts.forEachChild(node, visit);
    };
    if (source) visit(source);
  }
  return defaults;
}

/** The values of the read-only `state` and `connection-status` attributes. */
const STATE =
  "'idle' | 'requesting' | 'authorizing' | 'verifying' | 'working' | 'bad_credentials' | 'error' | 'cancelled'";
const CONNECTION_STATUS = "'none' | 'created' | 'working' | 'bad_credentials'";

/** src/element/x.ts or /src/element/x.js -> dist/element/x.js */
const shipped = (path) => path.replace(/^\/?src\//, 'dist/').replace(/\.ts$/, '.js');

/** What a source module exports as a type only (`export type { X }`, `export { type X }`), which the analyzer lists. */
function typeExports(path) {
  const names = new Set();
  for (const [, allTypes, list] of readFileSync(path, 'utf8').matchAll(/export (type )?\{([^}]*)\}/g))
    for (const [, type, name] of list.matchAll(/(type\s+)?(\w+)(?:\s+as\s+\w+)?\s*(?:,|$)/g))
      if (allTypes || type) names.add(name);
  return names;
}

/**
 * Keeps a tag's own events (its @event lines; the analyzer also lists the dispatches it finds) and types each from
 * its event map, as the compiler reads it.
 */
function typeEvents(declaration, types) {
  declaration.events = (declaration.events ?? []).filter((e) => e.name.startsWith('connect-'));
  for (const event of declaration.events) {
    if (!types[event.name]) throw new Error(`custom-elements.json: no type for ${event.name} in its event map`);
    event.type = { text: types[event.name] };
  }
}

/** Each tag by its class (define.ts and define-integrations.ts register constants the analyzer does not evaluate). */
const TAGS = { ConnectProvider: 'connect-provider', ConnectIntegrations: 'connect-integrations' };

const cleanup = {
  name: 'connect-provider-cleanup',
  packageLinkPhase({ customElementsManifest }) {
    // Each map's events as its own file names their details (the list's file sees the element's map too).
    const EVENT_TYPES = { ...eventTypes('src/element/integrations-events.ts'), ...eventTypes() };
    for (const module of customElementsManifest.modules) {
      const types = typeExports(module.path.replace(/^\//, ''));
      const internal = internalMembers(module.path.replace(/^\//, ''));
      const literals = literalDefaults([module.path.replace(/^\//, '')]);
      /** Drops the internal state and the private members of the class `declaration` from what it lists. */
      const publicOnly = (declaration) => {
        const hidden = internal.get(declaration.name) ?? new Set();
        declaration.attributes = (declaration.attributes ?? []).filter((a) => !hidden.has(a.fieldName ?? a.name));
        declaration.members = (declaration.members ?? []).filter((m) => !hidden.has(m.name) && m.privacy !== 'private');
        for (const entry of [...declaration.members, ...declaration.attributes]) {
          const literal = literals.get(declaration.name)?.get(entry.fieldName ?? entry.name);
          if (entry.default !== undefined && literal !== undefined) entry.default = literal;
        }
      };
      if (module.exports) module.exports = module.exports.filter((entry) => !types.has(entry.name));
      module.path = shipped(module.path);
      for (const entry of module.exports ?? []) {
        const from = entry.declaration?.module;
        // A re-export (`export { X } from './x.js'`) names its module relative to the re-exporting one.
        if (from)
          entry.declaration.module = /^\.\.?\//.test(from)
            ? posix.join(posix.dirname(module.path), from)
            : shipped(from);
        if (entry.kind === 'custom-element-definition') entry.name = TAGS[entry.declaration.name];
      }
      for (const declaration of module.declarations ?? []) {
        if (declaration.name === 'ConnectIntegrations') {
          declaration.tagName = 'connect-integrations';
          declaration.customElement = true;
          publicOnly(declaration);
          // The list's own events, from its @event lines, each typed as its map in integrations-events.ts says.
          typeEvents(declaration, EVENT_TYPES);
          continue;
        }
        if (declaration.name !== 'ConnectProvider') continue;
        declaration.tagName = 'connect-provider';
        declaration.customElement = true;
        publicOnly(declaration);
        typeEvents(declaration, EVENT_TYPES);
        // Read-only reflections, written by the element itself: listed with their values, for reading and styling
        // (test/package/pack.test.ts checks the values against machine.ts and the API's ConnectionStatus).
        declaration.attributes.push(
          {
            name: 'state',
            description: "Read-only: the flow's state, reflected by the element.",
            type: { text: STATE },
            fieldName: 'state',
          },
          {
            name: 'connection-status',
            description:
              "Read-only: the caller's connection at rest: absent while unknown, `none`, or the connection's status.",
            type: { text: CONNECTION_STATUS },
          },
        );
        // The `state` property: its values, not the name of a type the editor cannot resolve.
        const state = declaration.members.find((m) => m.name === 'state');
        if (state) state.type = { text: STATE };
      }
    }
    // Every event of a row leaves the list (composed), `detail.provider` naming the row: the list fires them too.
    const declarations = customElementsManifest.modules.flatMap((m) => m.declarations ?? []);
    const [rowDeclaration, listDeclaration] = ['ConnectProvider', 'ConnectIntegrations'].map((n) =>
      declarations.find((d) => d.name === n),
    );
    listDeclaration.events.push(
      ...rowDeclaration.events.map((event) => ({
        ...event,
        description: `From a row, its \`detail.provider\` naming it: ${event.description}`,
      })),
    );
    // The package's main entry (`import 'connect-provider'`) registers the tag and re-exports the class.
    const element = { name: 'ConnectProvider', module: 'dist/element/connect-provider.js' };
    customElementsManifest.modules.push({
      kind: 'javascript-module',
      path: 'dist/index.js',
      declarations: [],
      exports: [
        { kind: 'js', name: 'ConnectProvider', declaration: element },
        {
          kind: 'js',
          name: 'defineConnectProvider',
          declaration: { name: 'defineConnectProvider', module: 'dist/element/define.js' },
        },
        { kind: 'js', name: 'TAG', declaration: { name: 'TAG', module: 'dist/element/define.js' } },
        { kind: 'custom-element-definition', name: 'connect-provider', declaration: element },
      ],
    });
    // connect-provider/integrations registers both tags and re-exports the list.
    const list = { name: 'ConnectIntegrations', module: 'dist/element/connect-integrations.js' };
    customElementsManifest.modules.push({
      kind: 'javascript-module',
      path: 'dist/integrations.js',
      declarations: [],
      exports: [
        { kind: 'js', name: 'ConnectIntegrations', declaration: list },
        {
          kind: 'js',
          name: 'defineConnectIntegrations',
          declaration: { name: 'defineConnectIntegrations', module: 'dist/element/define-integrations.js' },
        },
        {
          kind: 'js',
          name: 'INTEGRATIONS_TAG',
          declaration: { name: 'INTEGRATIONS_TAG', module: 'dist/element/define-integrations.js' },
        },
        {
          kind: 'js',
          name: 'DEFAULT_INTEGRATIONS_STRINGS',
          declaration: { name: 'DEFAULT_INTEGRATIONS_STRINGS', module: 'dist/element/integrations-strings.js' },
        },
        { kind: 'custom-element-definition', name: 'connect-integrations', declaration: list },
        { kind: 'custom-element-definition', name: 'connect-provider', declaration: element },
      ],
    });
  },
};

const editorData = {
  outdir: 'dist',
  descriptionSrc: 'summary',
  hideLogs: true,
  hideMethodDocs: false,
  referencesTemplate: () => [{ name: 'README', url: 'https://www.npmjs.com/package/connect-provider' }],
};

export default {
  globs: [
    'src/element/connect-provider.ts',
    'src/element/define.ts',
    'src/element/connect-integrations.ts',
    'src/element/define-integrations.ts',
  ],
  outdir: '.',
  litelement: true,
  overrideModuleCreation: sourcesForAnalyzer,
  dependencies: false,
  plugins: [
    cleanup,
    customElementVsCodePlugin({
      ...editorData,
      htmlFileName: 'vscode.html-custom-data.json',
      cssFileName: 'vscode.css-custom-data.json',
    }),
    customElementJetBrainsPlugin({
      ...editorData,
      webTypesFileName: 'web-types.json',
      excludeCss: false,
      packageJson: false,
    }),
  ],
};
