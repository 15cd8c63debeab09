#!/usr/bin/env node
// Generates src/shared/schema.ts from src/api/openapi.yaml with openapi-typescript.
//   node scripts/gen-types.mjs          write the file
//   node scripts/gen-types.mjs --check  exit 1 when the committed file is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = new URL('../', import.meta.url);
const source = new URL('src/api/openapi.yaml', root);
const target = new URL('src/shared/schema.ts', root);

export async function generateSchemaTypes() {
  const ast = await openapiTS(source, { alphabetize: false, exportType: false, defaultNonNullable: false });
  return (
    '// Generated from src/api/openapi.yaml by scripts/gen-types.mjs (npm run gen:types).\n' +
    '// Do not edit by hand: a test fails when this file is stale.\n\n' +
    astToString(ast)
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generateSchemaTypes();
  if (process.argv.includes('--check')) {
    const current = readFileSync(target, 'utf8');
    if (current !== text) {
      console.error('src/shared/schema.ts is stale: run npm run gen:types');
      process.exit(1);
    }
    console.log('src/shared/schema.ts is up to date');
  } else {
    writeFileSync(target, text);
    console.log('wrote src/shared/schema.ts');
  }
}
