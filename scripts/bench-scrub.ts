#!/usr/bin/env -S node --import tsx
// node --import tsx scripts/bench-scrub.ts: the worst time of one call of the
// handler's scrubber (src/server/scrub.ts) and of the platform client's
// problem parsing (problemFromResponse in src/api/errors.ts) on 1 MB
// adversarial texts: runs that made the earlier patterns backtrack
// quadratically (a run of `<`, `/a/a/a...`, `a.a.a...`), parts of a stack
// frame, of a URL, of the key. The unit test (test/node/server/scrub.test.ts)
// checks what they answer; this measures how long they take.
import { performance } from 'node:perf_hooks';
import { problemFromResponse } from '../src/api/errors.js';
import { createScrubber } from '../src/server/scrub.js';

const KEY = 'k>>>???live-key-0123456789';
const scrub = createScrubber(KEY, 'http://127.0.0.1:4010/v1');
const MB = 1024 * 1024;
const UNITS = [
  '<',
  '<a',
  '/a',
  'a.',
  ':1',
  '/:1',
  'at ',
  'at a ',
  ' ',
  'a',
  '(',
  'file:',
  'a://',
  '127.0.0.1',
  'k>>>???liv',
];
const ROUNDS = 5;

const texts = UNITS.map((unit) => ({ unit, text: unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB) }));

function worst(run: () => void): number {
  let max = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    run();
    max = Math.max(max, performance.now() - start);
  }
  return max;
}

async function worstAsync(run: () => Promise<unknown>): Promise<number> {
  let max = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    max = Math.max(max, performance.now() - start);
  }
  return max;
}

const rows: Array<{ input: string; scrubMs: string; problemMs: string }> = [];
let scrubWorst = 0;
let problemWorst = 0;
for (const { unit, text } of texts) {
  const s = worst(() => scrub(text));
  const p = await worstAsync(() =>
    problemFromResponse(new Response(text, { status: 500, headers: { 'content-type': 'text/html' } })),
  );
  scrubWorst = Math.max(scrubWorst, s);
  problemWorst = Math.max(problemWorst, p);
  rows.push({ input: `${JSON.stringify(unit)} x 1 MB`, scrubMs: s.toFixed(2), problemMs: p.toFixed(2) });
}
console.table(rows);
console.log(
  `worst per call on 1 MB inputs (${ROUNDS} rounds each): scrub ${scrubWorst.toFixed(2)} ms, problemFromResponse ${problemWorst.toFixed(2)} ms`,
);
