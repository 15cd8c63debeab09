// React 19 ships CommonJS only. For the React wrapper's browser test, esbuild
// bundles react and react-dom/client once into one ES module (one React
// instance), and thin modules re-export their names.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const MODULES = { react: 'react', 'react-dom/client': 'react-dom-client' };
// The production files name their exports as `exports.name =`: read, never run
// (React's development build patches console, which breaks the runner's terminal).
const SOURCES = {
  react: 'react/cjs/react.production.js',
  'react-dom/client': 'react-dom/cjs/react-dom-client.production.js',
};

let bundled;
async function vendorBundle() {
  bundled ??= build({
    stdin: {
      contents:
        "import * as React from 'react'; import * as ReactDOMClient from 'react-dom/client'; export { React, ReactDOMClient };",
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'esm',
    write: false,
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  }).then((r) => r.outputFiles[0].text);
  return bundled;
}

function facade(specifier) {
  const [pkg, ...rest] = SOURCES[specifier].split('/');
  const root = require.resolve(`${pkg}/package.json`).replace(/package\.json$/, '');
  const source = readFileSync(root + rest.join('/'), 'utf8');
  const names = [...new Set([...source.matchAll(/\bexports\.([A-Za-z_$][\w$]*)\s*=/g)].map((m) => m[1]))];
  const local = specifier === 'react' ? 'React' : 'ReactDOMClient';
  return `import { ${local} } from '/__vendor__/bundle.js';\nexport default ${local};\nexport const { ${names.join(', ')} } = ${local};\n`;
}

export const reactAsEsm = {
  name: 'react-as-esm',
  resolveImport({ source }) {
    if (source in MODULES) return `/__vendor__/${MODULES[source]}.js`;
  },
  async serve(context) {
    if (context.path === '/__vendor__/bundle.js') return { body: await vendorBundle(), type: 'js' };
    for (const [specifier, file] of Object.entries(MODULES)) {
      if (context.path === `/__vendor__/${file}.js`) return { body: facade(specifier), type: 'js' };
    }
  },
};
