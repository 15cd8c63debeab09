#!/usr/bin/env node
// npm run lint: ESLint, lit-analyzer over the templates, and Prettier's check,
// all three run whatever the first ones found; fails when any of them does.
import { spawnSync } from 'node:child_process';

const checks = [
  ['eslint', ['eslint', '--max-warnings', '0', '.']],
  ['lit-analyzer', ['lit-analyzer', 'src/element', 'test/browser', 'demo']],
  ['prettier --check', ['prettier', '--check', '--log-level', 'warn', '.']],
];
const failed = [];
for (const [name, args] of checks) {
  if (spawnSync('npx', ['--no-install', ...args], { stdio: 'inherit' }).status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(
    `lint: ${failed.join(', ')} failed${failed.includes('prettier --check') ? ' (npm run format rewrites the files)' : ''}`,
  );
  process.exit(1);
}
