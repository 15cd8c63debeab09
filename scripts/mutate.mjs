#!/usr/bin/env node
// Mutation testing of the Node code with StrykerJS (stryker.config.mjs), one
// area after the other, then one score line per area and for all of them.
//   npm run mutate                     api, server, element and emulator
//   npm run mutate -- api              one area (or several)
//   npm run mutate -- emulator.access  one part of an area that has parts
// Not part of npm test: it runs the area's Node tests once per mutant. The
// incremental files in reports/mutation/ make a second run re-test only what changed.
// An area with parts (the emulator) runs one part after the other; its score sums
// the latest report of every part, and a part not yet run is named.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
// The config checks MUTATE_AREA and MUTATE_PART when loaded; here the arguments choose, and each run gets its own.
delete process.env.MUTATE_AREA;
delete process.env.MUTATE_PART;
const { AREAS, mutatedBy } = await import('../stryker.config.mjs');

const ALL = Object.keys(AREAS);
/** [area, part | undefined] for each run asked for. */
const runs = [];
for (const arg of process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL) {
  const [area, part, ...rest] = arg.split('.');
  const parts = Object.hasOwn(AREAS, area) ? AREAS[area].parts : undefined;
  if (
    !Object.hasOwn(AREAS, area) ||
    rest.length > 0 ||
    (part !== undefined && !(parts && Object.hasOwn(parts, part)))
  ) {
    const names = ALL.flatMap((a) => [a, ...Object.keys(AREAS[a].parts ?? {}).map((p) => `${a}.${p}`)]);
    console.error(`unknown area ${arg}: choose among ${names.join(', ')}`);
    process.exit(2);
  }
  if (part === undefined && parts) for (const p of Object.keys(parts)) runs.push([area, p]);
  else runs.push([area, part]);
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Counts of a Stryker JSON report (mutation-testing-report-schema), over the files the area mutates. */
function countReport(file, area, part) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const counts = { detected: 0, undetected: 0, timeout: 0, survived: 0, noCoverage: 0 };
  for (const [name, { mutants }] of Object.entries(report.files)) {
    if (!mutatedBy(area, part, name)) continue;
    for (const { status } of mutants) {
      if (DETECTED.has(status)) counts.detected++;
      if (UNDETECTED.has(status)) counts.undetected++;
      if (status === 'Timeout') counts.timeout++;
      if (status === 'Survived') counts.survived++;
      if (status === 'NoCoverage') counts.noCoverage++;
    }
  }
  return counts;
}

const score = ({ detected, undetected }) =>
  detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
const reportOf = (area, part) => `reports/mutation/${part ? `${area}.${part}` : area}.json`;
const minutes = new Map();
/** Reports whose run failed this time: not shown as results, not summed. */
const failedRuns = new Set();
for (const [area, part] of runs) {
  const started = Date.now();
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    // The property tests run 250 cases from a fixed seed per mutant (2,000 random ones under npm test): a kill is
    // then repeatable, and a mutant costs seconds instead of half a minute.
    env: { FC_SEED: '2', FC_RUNS: '250', ...process.env, MUTATE_AREA: area, MUTATE_PART: part ?? '' },
  });
  if (run.status === 0) minutes.set(reportOf(area, part), ((Date.now() - started) / 60_000).toFixed(1));
  else failedRuns.add(reportOf(area, part));
}

// One row per part and per area (an area's row sums its parts' latest reports), then all of them.
const row = (label, counts, time = '') =>
  console.log(
    `${label.padEnd(20)} ${[
      score(counts).toFixed(1) + '%',
      counts.detected,
      counts.timeout,
      counts.survived,
      counts.noCoverage,
      time,
    ]
      .map((c, i) => String(c).padStart([7, 8, 10, 9, 12, 8][i]))
      .join(' ')}`,
  );
const add = (total, counts) => {
  for (const key of Object.keys(total)) total[key] += counts[key];
};
const zero = () => ({ detected: 0, undetected: 0, timeout: 0, survived: 0, noCoverage: 0 });
// A mutant that made the tests time out counts as killed (as Stryker counts it); the column says how many did, since
// a loaded machine can turn a slow run into a time-out.
console.log('\narea                   score   killed  timed out  survived  no coverage  minutes');
const all = zero();
let areasShown = 0;
const incomplete = [];
for (const area of [...new Set(runs.map(([a]) => a))]) {
  const parts = Object.keys(AREAS[area].parts ?? {});
  const total = zero();
  const missing = [];
  for (const part of parts.length > 0 ? parts : [undefined]) {
    const file = reportOf(area, part);
    if (failedRuns.has(file) || !existsSync(file)) {
      if (failedRuns.has(file))
        console.log(`${(part ? `  ${area}.${part}` : area).padEnd(20)} stryker failed (see above)`);
      missing.push(part ?? area);
      continue;
    }
    const counts = countReport(file, area, part);
    add(total, counts);
    if (part) row(`  ${area}.${part}`, counts, minutes.get(file) ?? '(earlier)');
    else row(area, counts, minutes.get(file) ?? '(earlier)');
  }
  if (missing.length > 0) {
    console.log(`${area.padEnd(20)} incomplete: no result for ${missing.join(', ')}`);
    incomplete.push(area);
    continue;
  }
  if (parts.length > 0) row(area, total);
  add(all, total);
  areasShown++;
}
if (areasShown > 1) row(incomplete.length > 0 ? `all but ${incomplete.join(', ')}` : 'all', all);
process.exit(failedRuns.size > 0 ? 1 : 0);
