#!/usr/bin/env node
// Mutation testing of the Node code with StrykerJS (stryker.config.mjs), one
// area after the other, then one score line per area and for all of them.
//   npm run mutate                     api, server and emulator
//   npm run mutate -- api              one area (or several)
// Not part of npm test: it runs the area's Node tests once per mutant. The
// incremental files in reports/mutation/ make a second run re-test only what changed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ALL = ['api', 'server', 'emulator'];
const areas = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
for (const area of areas) {
  if (!ALL.includes(area)) {
    console.error(`unknown area ${area}: choose among ${ALL.join(', ')}`);
    process.exit(2);
  }
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Counts of a Stryker JSON report (mutation-testing-report-schema). */
function countReport(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const counts = { detected: 0, undetected: 0, survived: 0, noCoverage: 0 };
  for (const { mutants } of Object.values(report.files)) {
    for (const { status } of mutants) {
      if (DETECTED.has(status)) counts.detected++;
      if (UNDETECTED.has(status)) counts.undetected++;
      if (status === 'Survived') counts.survived++;
      if (status === 'NoCoverage') counts.noCoverage++;
    }
  }
  return counts;
}

const score = ({ detected, undetected }) =>
  detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
const rows = [];
let failed = false;
for (const area of areas) {
  const started = Date.now();
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    // The property tests run 250 cases from a fixed seed per mutant (2,000 random ones under npm test): a kill is
    // then repeatable, and a mutant costs seconds instead of half a minute.
    env: { FC_SEED: '2', FC_RUNS: '250', ...process.env, MUTATE_AREA: area },
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (run.status !== 0) {
    failed = true;
    rows.push([area, undefined, minutes]);
    continue;
  }
  rows.push([area, countReport(`reports/mutation/${area}.json`), minutes]);
}

console.log('\narea       score   killed  survived  no coverage  minutes');
const total = { detected: 0, undetected: 0, survived: 0, noCoverage: 0 };
for (const [area, counts, minutes] of rows) {
  if (!counts) {
    console.log(`${area.padEnd(9)}  stryker failed (see above)`);
    continue;
  }
  for (const key of Object.keys(total)) total[key] += counts[key];
  const cells = [score(counts).toFixed(1) + '%', counts.detected, counts.survived, counts.noCoverage, minutes];
  console.log(`${area.padEnd(9)} ${cells.map((c, i) => String(c).padStart([6, 8, 9, 12, 8][i])).join(' ')}`);
}
if (rows.filter(([, c]) => c).length > 1) console.log(`all        ${score(total).toFixed(1)}%`);
process.exit(failed ? 1 : 0);
