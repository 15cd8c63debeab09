#!/usr/bin/env -S node --import tsx
// npm run bench [-- --peers] [-- --flows N]: one table, measured in one run.
//   sizes    the self-contained element bundle next to lit's baseline, and with
//            --peers the platform's own React library (@amp-labs/react,
//            ConnectProvider) and @nangohq/frontend, installed for the bench
//            only and bundled the same way (esbuild + terser, React external)
//   flows    full flows in Chromium against the emulator, through the real
//            handler, with the element's defaults (poll-interval 1000,
//            verify delay 1500): requests per flow, ms from the emulator
//            marking the connection verified to connect-success, and requests
//            before the popup opens
//   list     page loads in Chromium, through the real handler and the emulator (its project given 20 integrations):
//            one <connect-integrations> of 5, 10 and 20 rows against as many <connect-provider> placed by hand,
//            backend requests at load and ms to connect-integrations-loaded (scripts/bench-integrations.ts)
//   install  packages, files and bytes that npm install connect-provider brings
//            (scripts/bench-install.ts)
//   handler  the handler's own cost: emulator, handler and a bare pass-through
//            proxy each in its own process, driven by autocannon in interleaved
//            rounds (scripts/bench-handler.ts)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { minify } from 'terser';
import { installRows } from './bench-install.js';
// @ts-expect-error plain ES module without types
import { bundle, bundleLitBaseline, LIT_BASELINE_NAME } from './bundle.mjs';
import { benchHandler } from './bench-handler.js';
import { benchFlows } from './bench-flow.js';
import { benchIntegrations } from './bench-integrations.js';

const { values } = parseArgs({
  options: { peers: { type: 'boolean', default: false }, flows: { type: 'string', default: '30' } },
});
const FLOWS = Math.max(1, Number(values.flows));
const rows: Array<[string, string, string]> = [];
const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// ---------------------------------------------------------------- sizes
async function minified(contents: string, resolveDir: string, external: string[] = []): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'js' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    conditions: ['production'],
    external,
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'error',
  });
  const { code } = await minify(result.outputFiles[0].text, {
    module: true,
    ecma: 2022,
    compress: { passes: 3 },
    mangle: true,
  });
  return new TextEncoder().encode(code!);
}

const element: Uint8Array = await bundle({ write: true });
rows.push([
  'size: <connect-provider> (lit included), min / gzip',
  `${element.length} B`,
  `${gzip(element)} B (${kb(gzip(element))})`,
]);
const lit: Uint8Array = await bundleLitBaseline();
rows.push([`size: ${LIT_BASELINE_NAME}`, `${lit.length} B`, `${gzip(lit)} B (${kb(gzip(lit))})`]);

if (values.peers) {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'bench-peers');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-peers', private: true }));
  console.error('installing @amp-labs/react and @nangohq/frontend for the bench...');
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--legacy-peer-deps',
      '@amp-labs/react',
      '@nangohq/frontend',
      'react',
      'react-dom',
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const react = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'];
  const amp = await minified("export { ConnectProvider } from '@amp-labs/react';", dir, react);
  const ampVersion = JSON.parse(readFileSync(join(dir, 'node_modules/@amp-labs/react/package.json'), 'utf8')).version;
  rows.push([
    `size: @amp-labs/react ${ampVersion} ConnectProvider (React external)`,
    `${amp.length} B`,
    `${gzip(amp)} B (${kb(gzip(amp))})`,
  ]);
  const nango = await minified("export { default } from '@nangohq/frontend';", dir, react);
  const nangoVersion = JSON.parse(
    readFileSync(join(dir, 'node_modules/@nangohq/frontend/package.json'), 'utf8'),
  ).version;
  rows.push([
    `size: @nangohq/frontend ${nangoVersion} (no UI)`,
    `${nango.length} B`,
    `${gzip(nango)} B (${kb(gzip(nango))})`,
  ]);
}

// ---------------------------------------------------------------- install footprint
rows.push(...installRows());

// ---------------------------------------------------------------- flows (scripts/bench-flow.ts)
rows.push(...(await benchFlows(FLOWS, element)));

// ---------------------------------------------------------------- the list's page loads (scripts/bench-integrations.ts)
rows.push(...(await benchIntegrations(element)));

// ---------------------------------------------------------------- handler overhead (separate processes: scripts/bench-handler.ts)
rows.push(...(await benchHandler()));

// ---------------------------------------------------------------- table
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${'measure'.padEnd(width)} | ${'value'.padStart(12)} | ${'value'.padStart(20)}`);
console.log(`${'-'.repeat(width)}-|-${'-'.repeat(12)}-|-${'-'.repeat(20)}`);
for (const [name, a, b] of rows) console.log(`${name.padEnd(width)} | ${a.padStart(12)} | ${b.padStart(20)}`);
console.log(`(node ${process.version}, ${new Date().toISOString()})`);
