#!/usr/bin/env node
// Measures the self-contained element bundle (lit included, minified) and
// fails when its gzip size is over budget. Prints the lit baseline built the
// same way, for comparison. Sizes in bytes; 1 KB = 1024 bytes (docs/benchmarks.md).
import { gzipSync } from 'node:zlib';
import { bundle, bundleLitBaseline, LIT_BASELINE_NAME } from './bundle.mjs';

/** The hard cap: a bundle over it fails `npm run size` (and `npm test`). */
export const BUDGET_GZIP = 15 * 1024;
/** Issue #20's target for the element with everything at rest (LitElement and lit-html included): printed, not yet met. */
export const TARGET_GZIP = 12 * 1024;

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;

const element = await bundle({ write: true });
const lit = await bundleLitBaseline();
const rows = [
  ['dist/connect-provider.js (element + lit)', element.length, gzip(element)],
  [LIT_BASELINE_NAME, lit.length, gzip(lit)],
];
console.log('bundle                                          min bytes   gzip bytes');
for (const [name, min, gz] of rows) {
  console.log(`${name.padEnd(46)} ${String(min).padStart(10)} ${String(gz).padStart(12)}  (${kb(gz)})`);
}
const size = rows[0][2];
console.log(`element's own share: ${size - rows[1][2]} bytes gzip; budget ${BUDGET_GZIP} bytes (${kb(BUDGET_GZIP)})`);
console.log(
  size > TARGET_GZIP
    ? `target ${TARGET_GZIP} bytes (${kb(TARGET_GZIP)}): over by ${size - TARGET_GZIP} bytes`
    : `target ${TARGET_GZIP} bytes (${kb(TARGET_GZIP)}): met`,
);
if (size > BUDGET_GZIP) {
  console.error(`over budget by ${size - BUDGET_GZIP} bytes`);
  process.exit(1);
}
