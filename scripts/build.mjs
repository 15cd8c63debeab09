#!/usr/bin/env node
// npm run build: everything dist/ and the package need.
//   dist/**/*.js, *.d.ts   ES modules (lit external) and types, by tsc
//   dist/api/openapi.yaml  the document the emulator validates with
//   dist/connect-provider.js  the self-contained element (lit included, minified)
//   custom-elements.json   the element's manifest
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, rmSync } from 'node:fs';
import { bundle } from './bundle.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

rmSync('dist', { recursive: true, force: true });
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
copyFileSync('src/api/openapi.yaml', 'dist/api/openapi.yaml');
chmodSync('dist/emulator/cli.js', 0o755);
await bundle({ write: true });
run('npx', ['cem', 'analyze', '--config', 'custom-elements-manifest.config.mjs']);
console.log('build: dist/ and custom-elements.json written');
