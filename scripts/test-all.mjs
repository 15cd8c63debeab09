#!/usr/bin/env node
// Runs every test suite of the package and ends with one plain line
// "N passed, N failed" that adds up every runner (CI reads that line).
//   node scripts/test-all.mjs            all suites
//   node scripts/test-all.mjs node       only the Node suites
//   node scripts/test-all.mjs browser    only the browser suites
//   node scripts/test-all.mjs e2e        only the end-to-end suite
//   node scripts/test-all.mjs package    only the packaging suite
//   node scripts/test-all.mjs types      only the type tests (tsc, vue-tsc, svelte-check, ngc)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = process.argv[2];
const tmp = mkdtempSync(join(tmpdir(), 'connect-provider-test-'));

function run(command, args, env = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const steps = [];

/** A suite run by Node's test runner with the spec reporter, counted from its summary. */
function nodeTestStep(name, script) {
  return {
    name,
    async run() {
      const { code, output } = await run('npm', ['run', '--silent', script]);
      const passed = Number(/^\S* ?pass (\d+)$/m.exec(output)?.[1] ?? 0);
      const failed = Number(/^\S* ?fail (\d+)$/m.exec(output)?.[1] ?? 0);
      // A crash before the summary still counts as a failure.
      return { passed, failed: code !== 0 && failed === 0 ? 1 : failed };
    },
  };
}

/** A command that passes or fails as one check. */
function checkStep(name, command, args) {
  return {
    name,
    async run() {
      const { code } = await run(command, args);
      return { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
    },
  };
}

if (!only || only === 'node') {
  steps.push(checkStep('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']));
  steps.push(nodeTestStep('node tests', 'test:node'));
  steps.push(checkStep('bundle size', 'node', ['scripts/size.mjs']));
}

if (!only || only === 'types') {
  steps.push(nodeTestStep('types (tsc, vue-tsc, svelte-check, ngc over the README snippets)', 'test:types'));
}

if (!only || only === 'browser') {
  steps.push({
    name: 'browser tests',
    async run() {
      const file = join(tmp, 'wtr.json');
      const { code } = await run('npm', ['run', '--silent', 'test:browser'], { WTR_SUMMARY_FILE: file });
      let totals = { passed: 0, failed: 0 };
      try {
        totals = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // no summary: the runner died before reporting
      }
      return { passed: totals.passed, failed: code !== 0 && totals.failed === 0 ? 1 : totals.failed };
    },
  });
}

if (!only || only === 'e2e') {
  steps.push(nodeTestStep('end-to-end (demo, Playwright)', 'test:e2e'));
}

if (!only || only === 'package') {
  steps.push(nodeTestStep('package (pack, install, import, load)', 'test:package'));
}

let passed = 0;
let failed = 0;
const lines = [];
for (const step of steps) {
  const result = await step.run();
  passed += result.passed;
  failed += result.failed;
  lines.push(`${step.name}: ${result.passed} passed, ${result.failed} failed`);
}
rmSync(tmp, { recursive: true, force: true });
console.log('');
for (const line of lines) console.log(`# ${line}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
