// The layout of src, read by the TypeScript compiler from the files' import and export statements:
// - docs/architecture.md's list of which folder of src imports which is the code's: every import across folders is
//   on the list, and every arrow of the list is used (ESLint's no-restricted-imports refuses a new one);
// - no module imports itself back through others (a cycle), type-only imports included;
// - each exported name means one thing: no two modules of src export the same name, and only the package's entry
//   points (package.json's exports) pass on another module's names, but for the few listed below with a reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'src');
/** A file's name as the messages give it: its path under src, with `/`. */
const named = (path: string) => relative(src, path).split(sep).join('/');

/** Every TypeScript module of src. */
const files = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => join(entry.parentPath, entry.name))
  .sort();

/** The relative module specifiers a file names: its imports and re-exports, its import() calls and types. */
function specifiersOf(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** `module -> the modules of src it imports`; a relative import naming no module of src fails the test. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of files) {
    const targets = specifiersOf(path).flatMap((specifier) => {
      const target = resolve(dirname(path), specifier).replace(/\.js$/, '.ts');
      // A file read as a file, not a module (openapi.yaml), is no edge.
      if (!target.endsWith('.ts')) return [];
      assert.ok(existsSync(target), `${named(path)} imports ${specifier}, which is no module of src`);
      return [target];
    });
    graph.set(path, targets);
  }
  return graph;
}

/** `folder -> folders` as docs/architecture.md lists them ("- `server` imports `api`, `http`, `shared`"). */
function documented(): Map<string, Set<string>> {
  const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const arrows = new Map<string, Set<string>>();
  for (const [, from, to] of text.matchAll(/^- `(\w+)` imports (.+)$/gm)) {
    arrows.set(from!, new Set([...to!.matchAll(/`(\w+)`/g)].map((match) => match[1]!)));
  }
  return arrows;
}

/** `folder -> folders` as the modules of src import them (imports that leave the folder). */
function actual(graph: Map<string, string[]>): Map<string, Set<string>> {
  const folderOf = (path: string) => named(path).split('/')[0]!;
  const arrows = new Map<string, Set<string>>();
  for (const [path, targets] of graph) {
    if (dirname(path) === src) continue; // src/index.ts and src/integrations.ts, the package's entries
    const from = folderOf(path);
    const to = arrows.get(from) ?? new Set<string>();
    arrows.set(from, to);
    for (const target of targets) if (folderOf(target) !== from) to.add(folderOf(target));
  }
  return arrows;
}

/** A cycle of the graph (its modules in import order, the first again at the end), or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (node: string): string[] | undefined => {
    if (onPath.has(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return undefined;
    path.push(node);
    onPath.add(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(node);
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle.map(named);
  }
  return undefined;
}

/** The modules of src the package's entry points are built from (package.json's exports: dist/x.js is src/x.ts). */
function entryPoints(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const targets = JSON.stringify(manifest.exports).match(/\.\/dist\/[^"]+\.js/g) ?? [];
  return new Set(
    targets.flatMap((target) => {
      const module = join(src, target.slice('./dist/'.length).replace(/\.js$/, '.ts'));
      return existsSync(module) ? [named(module)] : [];
    }),
  );
}

/** Names two modules of src may both declare, each with its reason. */
const SAME_NAME: Record<string, string> = {
  default: "each locale pack's texts (src/locales/<lang>.ts), one per module: importers name it",
  ConnectProvider: "connect-provider/react's component carries the element's name: the package's public API",
  ConnectIntegrations: "connect-provider/react's component carries the element's name: the package's public API",
};

/** Re-exports outside the entry points, each with its reason (`module name`): none; import a name where it is declared. */
const RE_EXPORTS: Record<string, string> = {};

type Exporters = Map<string, Array<{ module: string; declaredIn: string }>>;
let exporters: Exporters | undefined;

/** Every exported name of each module of src: `name -> [module, the module that declares it]` (read once). */
function exportedNames(): Exporters {
  if (exporters) return exporters;
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => assert.fail(String(diagnostic.messageText)),
    },
  )!;
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const names: Exporters = new Map();
  for (const path of files) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(path)!);
    if (!moduleSymbol) continue; // a script, no module
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const original = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = original.declarations?.[0];
      const declaredIn = declaration ? named(declaration.getSourceFile().fileName) : named(path);
      const list = names.get(symbol.name) ?? [];
      list.push({ module: named(path), declaredIn });
      names.set(symbol.name, list);
    }
  }
  return (exporters = names);
}

describe('the layout of src', () => {
  const graph = importGraph();

  it('imports across folders exactly as docs/architecture.md lists', () => {
    const listed = documented();
    const found = actual(graph);
    assert.deepEqual([...listed.keys()].sort(), [...found.keys()].sort(), 'the page lists every folder of src');
    for (const [folder, targets] of found) {
      const allowed = [...listed.get(folder)!].filter((target) => target !== 'nothing');
      assert.deepEqual([...targets].sort(), allowed.sort(), `src/${folder}'s imports`);
    }
  });

  it('has no import cycle', () => {
    assert.ok([...graph.values()].flat().length > files.length, 'the graph holds the imports');
    const cycle = findCycle(graph);
    assert.equal(cycle, undefined, `an import cycle: ${cycle?.join(' -> ')}`);
  });

  it('gives each exported name one meaning: one module declares it, entry points alone pass it on', () => {
    const entries = entryPoints();
    assert.ok(entries.has('server/index.ts') && entries.has('element/react.ts'), "package.json's entry points read");
    const problems: string[] = [];
    for (const [name, exporters] of exportedNames()) {
      const declaring = new Set(exporters.map(({ declaredIn }) => declaredIn));
      if (declaring.size > 1 && !SAME_NAME[name])
        problems.push(`${name} is declared by ${[...declaring].sort().join(' and ')}`);
      for (const { module, declaredIn } of exporters) {
        if (module !== declaredIn && !entries.has(module) && !RE_EXPORTS[`${module} ${name}`])
          problems.push(`${module} passes on ${name} of ${declaredIn}: import it from there`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('allows only names and re-exports that are still there', () => {
    const names = exportedNames();
    for (const name of Object.keys(SAME_NAME)) {
      const declaring = new Set((names.get(name) ?? []).map(({ declaredIn }) => declaredIn));
      assert.ok(declaring.size > 1, `${name} is declared once now: take it off SAME_NAME`);
    }
    for (const key of Object.keys(RE_EXPORTS)) {
      const [module, name] = key.split(' ');
      assert.ok(
        names.get(name!)?.some((entry) => entry.module === module && entry.declaredIn !== module),
        `${module} no longer passes on ${name}: take it off RE_EXPORTS`,
      );
    }
  });
});

/** The generated schema, the one file the size rules leave out. */
const GENERATED = 'shared/schema.ts';

/** Each class and function of a file longer than `max` lines, as "file: name, N lines". */
function longerThan(path: string, max: number): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const long: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassLike(node) || ts.isFunctionLike(node)) {
      const lines =
        file.getLineAndCharacterOfPosition(node.getEnd()).line -
        file.getLineAndCharacterOfPosition(node.getStart(file)).line +
        1;
      const name = (node as ts.NamedDeclaration).name?.getText(file) ?? '(anonymous)';
      if (lines > max) long.push(`${named(path)}: ${name}, ${lines} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return long;
}

describe('the size of the parts of src', () => {
  it('keeps every class and function within 350 lines (the generated schema aside)', () => {
    const long = files.filter((path) => named(path) !== GENERATED).flatMap((path) => longerThan(path, 350));
    assert.deepEqual(long, []);
  });

  it('keeps every file of src/element within 450 lines', () => {
    const long = files
      .filter((path) => named(path).startsWith('element/'))
      .map((path) => [named(path), readFileSync(path, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 450)
      .map(([name, lines]) => `${name}: ${lines} lines`);
    assert.deepEqual(long, []);
  });
});
