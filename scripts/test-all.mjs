#!/usr/bin/env node
// Runs every check and test suite of the package and ends with one plain line
// "N passed, N failed" that adds up every runner (CI reads that line), and a
// non-zero exit when anything failed.
//   node scripts/test-all.mjs            all suites
//   node scripts/test-all.mjs node       only types, lint, the Node suites (the runtimes' too) and the size check
//   node scripts/test-all.mjs browser    only the browser suites
//   node scripts/test-all.mjs e2e        only the end-to-end suite
//   node scripts/test-all.mjs package    only the packaging suite
//   node scripts/test-all.mjs examples   only the examples (examples/: built from the tarball, clicked in Chromium)
//   node scripts/test-all.mjs types      only the type tests (tsc, vue-tsc, svelte-check, ngc)
// The suites that install the tarball (package, examples) share one `npm pack`
// (CONNECT_PROVIDER_PACK, test/shared/pack.ts). Before the suites that drive browsers, it installs the missing browsers from
// Debian's apt (as root on Debian) or stops at once naming the command to run
// (scripts/browsers.mjs). Each step runs in its own session with a time limit
// (TEST_STEP_LIMIT_S overrides every limit): a step over its limit, or one
// that fails, is stopped with everything it started.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBrowsers } from './browsers.mjs';

const only = process.argv[2];
const tmp = mkdtempSync(join(tmpdir(), 'connect-provider-test-'));
const limitOverride = Number(process.env.TEST_STEP_LIMIT_S) * 1000 || undefined;

/** pid -> [ppid, session id] of every process on the machine (Linux /proc). */
function processTable() {
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp session ...": comm may hold spaces, so split after its ')'.
      const [state, ppid, , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A zombie has ended already (it waits for a parent to reap it, which PID 1 of a container may never do).
      if (state !== 'Z') table.set(Number(entry), [Number(ppid), Number(session)]);
    } catch {
      // the process ended while we read
    }
  }
  return table;
}

/** Every process `pid` started, directly or not, and every process left in its session. */
function descendants(pid) {
  const table = processTable();
  const found = new Set();
  for (const [p, [, session]] of table) if (session === pid && p !== pid) found.add(p);
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.pop();
    for (const [p, [ppid]] of table) {
      if (ppid === parent && !found.has(p)) {
        found.add(p);
        queue.push(p);
      }
    }
  }
  return [...found];
}

function commandName(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return String(pid);
  }
}

function kill(pids, signal) {
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}

/** The steps' processes running now (two at once while the static checks run beside the browser tests). */
const running = new Set();

/** Stops a step's process and everything it started: SIGTERM, then SIGKILL after 5 s. */
async function stopTree(child) {
  const pids = [child.pid, ...descendants(child.pid)];
  kill(pids, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 5000).unref());
  kill([...pids, ...descendants(child.pid)], 'SIGKILL');
}

/**
 * Runs a step's command. `quiet`: its standard output is kept, not shown, and its error output is shown in one piece
 * when it ends (it runs beside another step); `later`: all its output is kept and shown in one piece when it ends,
 * under `title` (a step that runs beside another).
 */
function run(command, args, { env = {}, limitMs, quiet = false, later = false, title = '' }) {
  return new Promise((resolve) => {
    let output = '';
    let errors = '';
    let timedOut = false;
    // detached: the step leads its own session, so what it leaves behind can be found and stopped.
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    const limit = limitOverride ?? limitMs;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n# ${command} ${args.join(' ')}: over its ${limit / 1000} s limit, stopping it`);
      stopTree(child);
    }, limit);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!quiet && !later) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      if (later) output += chunk;
      else if (quiet) errors += chunk;
      else process.stderr.write(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 1, output: String(error), timedOut });
    });
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      // Anything still running in the step's session a second later (a server, Xvfb, a driver) was leaked: stop it.
      // (Helpers such as esbuild's service end on their own just after their parent.)
      await new Promise((r) => setTimeout(r, 1000));
      const leftovers = descendants(child.pid);
      if (leftovers.length > 0) {
        const names = leftovers.map(commandName).join(', ');
        console.error(`# ${command} ${args.join(' ')} left ${names} running: stopping it`);
        kill(leftovers, 'SIGKILL');
      }
      if (later) process.stdout.write(`\n## ${title}\n${output}\n## end of ${title}\n`);
      if (quiet && errors) process.stderr.write(`\n## ${command} ${args[0] ?? ''}\n${errors}## end of it\n`);
      resolve({ code: code ?? 1, signal, output, timedOut });
    });
  });
}

const steps = [];

/**
 * A suite run by Node's test runner with the spec reporter, counted from its summary. `later`: its output is shown in
 * one piece when it ends (it runs beside another step); so too for `alongside`.
 */
function nodeTestStep(name, script, limitMs, { alongside = false, later = alongside } = {}) {
  return {
    name,
    alongside,
    async run() {
      const { code, output, timedOut } = await run('npm', ['run', '--silent', script], {
        limitMs,
        later,
        title: name,
      });
      const passed = Number(/^\S* ?pass (\d+)$/m.exec(output)?.[1] ?? 0);
      const failed = Number(/^\S* ?fail (\d+)$/m.exec(output)?.[1] ?? 0);
      // A crash before the summary, or a stop at the time limit, still counts as a failure.
      return {
        passed,
        failed: (code !== 0 || timedOut) && failed === 0 ? 1 : failed,
        timedOut,
        failures: failingTests(output),
      };
    },
  };
}

/** The tests the spec reporter lists under "failing tests:" at the end of its output, each with where it is. */
function failingTests(output) {
  const start = output.lastIndexOf('failing tests:');
  if (start === -1) return [];
  const names = [];
  let where = '';
  for (const line of output.slice(start).split('\n').slice(1)) {
    const at = /^test at (\S+)/.exec(line);
    if (at) where = at[1];
    const name = /^✖ (.*?)(?: \([\d.]+ms\))?$/.exec(line)?.[1];
    if (name !== undefined) names.push(where ? `${where} > ${name}` : name);
  }
  return names;
}

/** A command that passes or fails as one check. */
function checkStep(name, command, args, limitMs, { alongside = false } = {}) {
  return {
    name,
    alongside,
    async run() {
      const { code, timedOut } = await run(command, args, { limitMs, later: alongside, title: name });
      const ok = code === 0 && !timedOut;
      return { passed: ok ? 1 : 0, failed: ok ? 0 : 1, timedOut };
    },
  };
}

const MINUTE = 60_000;

// The static checks (they read the sources, write nothing others read and wait on no timer) run beside the browser
// tests, which spend much of their time waiting on popups and polls: CI on two cores takes about two minutes less.
const alongside = !only;

if (!only || only === 'node') {
  steps.push(checkStep('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], 5 * MINUTE, { alongside }));
  steps.push(
    checkStep('lint (eslint, lit-analyzer, prettier --check)', 'npm', ['run', '--silent', 'lint'], 5 * MINUTE, {
      alongside,
    }),
  );
  steps.push({ ...nodeTestStep('node tests', 'test:node', 10 * MINUTE), nodeSuite: true });
  // The size check and the audit read no timer and none of the Node tests' files: in a whole run they go beside the
  // Node tests (see sideOfNodeTests), not after them.
  steps.push({ ...checkStep('bundle size', 'node', ['scripts/size.mjs'], 2 * MINUTE), besideNode: alongside });
  // Known advisories of the code inlined into dist/ (exit 0, the list printed, when the registry cannot be asked).
  steps.push({
    ...checkStep('audit of the bundled packages', 'npm', ['run', '--silent', 'audit:bundled'], 2 * MINUTE),
    besideNode: alongside,
  });
  // The handler on Bun, Deno and workerd against Node (each from its npm package): it reads src/ and docs/ only, writes
  // under node_modules/.cache and asserts no timing, so in a whole run it too goes beside the Node tests.
  steps.push({
    ...nodeTestStep('runtimes (the handler on Node, Bun, Deno, workerd)', 'test:runtimes', 3 * MINUTE, {
      later: alongside,
    }),
    besideNode: alongside,
  });
}

if (!only || only === 'types') {
  steps.push(
    nodeTestStep('types (tsc, vue-tsc, svelte-check, ngc over the README snippets)', 'test:types', 10 * MINUTE, {
      alongside,
    }),
  );
}

if (!only || only === 'browser') {
  steps.push({
    name: 'browser tests',
    browser: true,
    async run() {
      const file = join(tmp, 'wtr.json');
      const { code, signal, timedOut } = await run('npm', ['run', '--silent', 'test:browser'], {
        env: { WTR_SUMMARY_FILE: file },
        limitMs: 20 * MINUTE,
      });
      let totals = { passed: 0, failed: 0, failures: [] };
      try {
        totals = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // No summary: the runner died before reporting. Say how it ended, since its last words may be lost with it.
        console.error(`# the browser runner ended (${signal ?? `exit code ${code}`}) before its summary`);
      }
      return {
        passed: totals.passed,
        failed: (code !== 0 || timedOut) && totals.failed === 0 ? 1 : totals.failed,
        timedOut,
        failures: totals.failures ?? [],
      };
    },
  });
}

if (!only || only === 'e2e') {
  steps.push(nodeTestStep('end-to-end (demo, Playwright)', 'test:e2e', 5 * MINUTE));
}

if (!only || only === 'package') {
  steps.push(nodeTestStep('package (pack, install, import, load)', 'test:package', 10 * MINUTE));
}

if (!only || only === 'examples') {
  steps.push(
    nodeTestStep(
      'examples (Next.js, SvelteKit: tarball, build, click in Chromium; Astro, Nuxt routes)',
      'test:examples',
      10 * MINUTE,
    ),
  );
}

/** Packs the package once for the suites that install it; without it (a failed pack) each suite packs on its own. */
async function packOnce() {
  const { code, output, timedOut } = await run('npm', ['pack', '--json', '--pack-destination', tmp], {
    limitMs: 5 * MINUTE,
    quiet: true,
  });
  if (code !== 0 || timedOut)
    return lines.push('npm pack for the package and examples steps failed: each packs itself');
  const file = join(tmp, 'pack.json');
  writeFileSync(file, output);
  process.env.CONNECT_PROVIDER_PACK = file;
}

let passed = 0;
let failed = 0;
const lines = [];

function finish(code) {
  rmSync(tmp, { recursive: true, force: true });
  console.log('');
  for (const line of lines) console.log(`# ${line}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? (failed === 0 && passed > 0 ? 0 : 1));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await Promise.all([...running].map(stopTree));
    lines.push(`stopped by ${signal}`);
    failed += 1;
    finish(130);
  });
}

// The suites that drive browsers need them installed first; without them, stop at once.
if (!only || ['browser', 'e2e', 'package', 'examples'].includes(only)) {
  if (!ensureBrowsers()) {
    failed += 1;
    lines.push('set-up: browsers missing (see the command above)');
    finish();
  }
}

/** Runs steps one after another; each one's line is kept under its own index, so the summary keeps their order. */
async function runSteps(list, summary) {
  for (const step of list) {
    const started = Date.now();
    const result = await step.run();
    passed += result.passed;
    failed += result.failed;
    const seconds = Math.round((Date.now() - started) / 1000);
    // Each failed test by name under its step's line (at most 20), so the end of a long log says what failed.
    const failures = (result.failures ?? []).slice(0, 20).map((name) => `\n#   failed: ${name}`);
    summary.set(
      step,
      `${step.name}: ${result.passed} passed, ${result.failed} failed (${seconds} s${result.timedOut ? ', stopped at its limit' : ''}${step.alongside ? ', beside the browser tests' : ''}${step.besideNode ? ', beside the node tests' : ''})${failures.join('')}`,
    );
  }
}

const summary = new Map();
const beside = steps.filter((step) => step.alongside);
const besideNode = steps.filter((step) => step.besideNode);
const browserStep = steps.find((step) => step.browser);
const nodeStep = steps.find((step) => step.nodeSuite);
const needsPack = !only || ['package', 'examples'].includes(only);

/**
 * What a whole run does beside the Node tests (they read nothing of dist/, and Node's test runner keeps one core
 * busy on two): the size check, the audit, then the pack, one after another, since the size check writes
 * dist/connect-provider.js and the pack's build (its prepack) rewrites dist/ whole. The browser tests bundle into
 * dist/ and the later suites install the tarball, so every step after the Node tests waits for this.
 */
async function sideOfNodeTests() {
  await runSteps(besideNode, summary);
  if (!needsPack) return;
  const started = Date.now();
  await packOnce();
  const seconds = Math.round((Date.now() - started) / 1000);
  lines.push(
    `npm pack, shared by the package and examples steps (${seconds} s${nodeStep ? ', beside the node tests' : ''})`,
  );
}

if (!nodeStep) await sideOfNodeTests();
for (const step of steps) {
  if ((step.alongside && browserStep) || (step.besideNode && nodeStep)) continue;
  if (step === nodeStep) await Promise.all([runSteps([step], summary), sideOfNodeTests()]);
  else if (step === browserStep) await Promise.all([runSteps([step], summary), runSteps(beside, summary)]);
  else await runSteps([step], summary);
}
for (const step of steps) if (summary.has(step)) lines.push(summary.get(step));
finish();
