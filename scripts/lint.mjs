#!/usr/bin/env node
// npm run lint: ESLint, lit-analyzer over the templates, Prettier's check, and
// the commit subjects since ba31d11 (at most 72 characters each), all run
// whatever the first ones found; fails when any of them does.
import { spawnSync } from 'node:child_process';

/** The first commit after which every subject is held to 72 characters (older ones were written before the rule). */
const SUBJECTS_FROM = 'ba31d11';
const SUBJECT_LIMIT = 72;

/** Commit subjects since SUBJECTS_FROM over the limit; skipped, with a line saying why, where there is no history. */
function commitSubjects() {
  const known = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${SUBJECTS_FROM}^{commit}`], {
    encoding: 'utf8',
  });
  if (known.error || known.status !== 0) {
    console.log(`lint: commit subjects not checked: ${SUBJECTS_FROM} is not in this clone (shallow, or no git)`);
    return true;
  }
  const log = spawnSync('git', ['log', `${SUBJECTS_FROM}..HEAD`, '--format=%h %s'], { encoding: 'utf8' });
  if (log.status !== 0) {
    console.error(`lint: git log ${SUBJECTS_FROM}..HEAD failed: ${log.stderr.trim()}`);
    return false;
  }
  const long = log.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)])
    .filter(([, subject]) => [...subject].length > SUBJECT_LIMIT);
  for (const [hash, subject] of long)
    console.error(`${hash}: subject of ${[...subject].length} characters (at most ${SUBJECT_LIMIT}): ${subject}`);
  return long.length === 0;
}

const checks = [
  ['eslint', ['eslint', '--max-warnings', '0', '.']],
  ['lit-analyzer', ['lit-analyzer', 'src/element', 'test/browser', 'demo']],
  ['prettier --check', ['prettier', '--check', '--log-level', 'warn', '.']],
];
const failed = [];
for (const [name, args] of checks) {
  if (spawnSync('npx', ['--no-install', ...args], { stdio: 'inherit' }).status !== 0) failed.push(name);
}
if (!commitSubjects()) failed.push('commit subjects');
if (failed.length > 0) {
  console.error(
    `lint: ${failed.join(', ')} failed${failed.includes('prettier --check') ? ' (npm run format rewrites the files)' : ''}`,
  );
  process.exit(1);
}
