#!/usr/bin/env node
// Measures the self-contained element bundle (lit included, minified) and
// fails when its gzip size is over budget. Prints the lit baseline built the
// same way, for comparison. Sizes in bytes; 1 KB = 1024 bytes, as in
// ../shared/research/peers.md.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { minify } from 'terser';
import { bundle } from './bundle.mjs';

export const BUDGET_GZIP = 10 * 1024;

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;

async function litBaseline() {
  const result = await build({
    stdin: {
      contents: "export { LitElement, html, css, nothing } from 'lit';",
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    conditions: ['production'],
    write: false,
    logLevel: 'error',
  });
  const { code } = await minify(result.outputFiles[0].text, { module: true, ecma: 2022, compress: { passes: 3 }, mangle: true });
  return new TextEncoder().encode(code);
}

const element = await bundle({ write: true });
const lit = await litBaseline();
const rows = [
  ['dist/connect-provider.js (element + lit)', element.length, gzip(element)],
  ['lit baseline (LitElement, html, css, nothing)', lit.length, gzip(lit)],
];
console.log('bundle                                          min bytes   gzip bytes');
for (const [name, min, gz] of rows) {
  console.log(`${name.padEnd(46)} ${String(min).padStart(10)} ${String(gz).padStart(12)}  (${kb(gz)})`);
}
const size = rows[0][2];
console.log(`element's own share: ${size - rows[1][2]} bytes gzip; budget ${BUDGET_GZIP} bytes (${kb(BUDGET_GZIP)})`);
if (size > BUDGET_GZIP) {
  console.error(`over budget by ${size - BUDGET_GZIP} bytes`);
  process.exit(1);
}
