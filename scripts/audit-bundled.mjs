#!/usr/bin/env node
// npm run audit:bundled: the third-party packages inlined into dist/ are not
// dependencies of the published package, so neither `npm audit` of an app nor
// Dependabot sees them. This script finds them the way the build does (esbuild's
// metafile, from the same entry points: scripts/build.mjs's inlined ajv, yaml,
// openapi-fetch and @lit/react, and scripts/bundle.mjs's self-contained element
// with lit), reads each one's installed version, and asks the configured
// registry's bulk advisory endpoint (what `npm audit` asks) about exactly those
// versions.
//   exit 1  a known advisory applies to a bundled version
//   exit 0  none does, or the registry could not be asked (the list is printed to check by hand)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

/** The bundles dist/ gets, as the build makes them (entries from src/, so no build is needed first). */
const BUNDLES = [
  // scripts/build.mjs inlineVendored: the emulator's contract (ajv, ajv-formats, yaml)
  { entryPoints: ['src/emulator/openapi.ts'], platform: 'node' },
  // the API client (openapi-fetch)
  { entryPoints: ['src/api/client.ts'], platform: 'neutral' },
  // the React wrapper (@lit/react), browser and Node builds
  { entryPoints: ['src/element/react.ts'], platform: 'browser', external: ['react', 'lit', 'lit/*'] },
  { entryPoints: ['src/element/react.ts'], platform: 'node', external: ['react', 'lit', 'lit/*'] },
  // scripts/bundle.mjs: the self-contained element, lit included
  { entryPoints: ['src/index.ts'], platform: 'browser', conditions: ['production'] },
];

/** name -> { version, dir } of every node_modules package an entry's bundle takes in. */
async function bundledPackages() {
  const found = new Map();
  for (const options of BUNDLES) {
    const result = await build({
      ...options,
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'error',
      tsconfig: 'tsconfig.json',
      outdir: 'audit-bundled-out',
    });
    for (const input of Object.keys(result.metafile.inputs)) {
      // The last node_modules/<name>/ of the path: a nested copy is its own package.
      const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
      if (!match) continue;
      const [, dir, name] = match;
      const { version } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
      const versions = found.get(name) ?? new Set();
      versions.add(version);
      found.set(name, versions);
    }
  }
  return found;
}

function registryUrl() {
  try {
    const configured = execFileSync('npm', ['config', 'get', 'registry'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (/^https?:\/\//.test(configured)) return configured.replace(/\/+$/, '');
  } catch {
    // npm not callable: the public registry
  }
  return 'https://registry.npmjs.org';
}

const packages = await bundledPackages();
const list = [...packages].sort(([a], [b]) => a.localeCompare(b));
console.log(`audit:bundled: ${list.length} packages inlined into dist/:`);
for (const [name, versions] of list) console.log(`  ${name}@${[...versions].join(', ')}`);

const registry = registryUrl();
const endpoint = `${registry}/-/npm/v1/security/advisories/bulk`;
let advisories;
try {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(Object.fromEntries(list.map(([name, versions]) => [name, [...versions]]))),
    signal: AbortSignal.timeout(20_000),
  });
  if (!response.ok) throw new Error(`${endpoint} answered ${response.status} ${response.statusText}`);
  advisories = await response.json();
  if (advisories === null || typeof advisories !== 'object' || Array.isArray(advisories))
    throw new Error(`${endpoint} answered no advisory map`);
} catch (error) {
  console.log(`audit:bundled: could not reach the registry: check these by hand (${error.message})`);
  process.exit(0);
}

const found = Object.entries(advisories).flatMap(([name, items]) =>
  (Array.isArray(items) ? items : []).map((a) => ({ name, ...a })),
);
if (found.length === 0) {
  console.log(`audit:bundled: no known advisory for these versions (${registry})`);
  process.exit(0);
}
for (const a of found) {
  console.log(
    `audit:bundled: ${a.name} (${[...(packages.get(a.name) ?? [])].join(', ')}): ${a.severity ?? 'unknown severity'}: ${a.title ?? ''} ${a.url ?? ''} (vulnerable: ${a.vulnerable_versions ?? '?'})`,
  );
}
console.log(`audit:bundled: ${found.length} known advisories apply to bundled code; update them and rebuild`);
process.exit(1);
