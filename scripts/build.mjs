#!/usr/bin/env node
// npm run build: everything dist/ and the package need.
//   dist/**/*.js, *.d.ts   ES modules (lit external) and types, by tsc
//   dist/api/openapi.yaml  the document the emulator validates with
//   dist/connect-provider.js  the self-contained element (lit included, minified)
//   dist/element/link-block.js  the link way's chunk, lean-qr's encoder inlined (loaded only when it is taken)
//   dist/locales/<lang>.js  each locale pack, self-contained and minified
//   custom-elements.json   the element's manifest
//   third-party code inlined so users install only lit's family (see inlineVendored):
//                          the emulator's ajv + yaml, the API client's openapi-fetch,
//                          @lit/react for connect-provider/react
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { bundle, bundleLocales, minifyElementTemplates } from './bundle.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

rmSync('dist', { recursive: true, force: true });
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
await minifyElementTemplates();
copyFileSync('src/api/openapi.yaml', 'dist/api/openapi.yaml');
chmodSync('dist/emulator/cli.js', 0o755);
await bundle({ write: true });
// tsc's dist/locales/<lang>.js import the registry by path; each becomes one self-contained module instead.
await bundleLocales({ write: true });
for (const file of readdirSync('dist/locales')) if (file.endsWith('.js.map')) rmSync(`dist/locales/${file}`);
await inlineVendored();
run('npx', ['cem', 'analyze', '--config', 'custom-elements-manifest.config.mjs']);
console.log('build: dist/ and custom-elements.json written');

/**
 * Inlines third-party runtime code into dist/ so `dependencies` can stay lit's family:
 * dist/emulator/openapi.js gets ajv, ajv-formats and yaml (CommonJS, wrapped by esbuild),
 * dist/api/client.js gets openapi-fetch, and
 * dist/element/react.js gets @lit/react's createComponent (both its builds, see
 * litReactForEitherSide), its 'use client' directive kept first. Relative imports, lit and react
 * stay external. Licences of what is inlined go to dist/THIRD-PARTY-LICENSES.txt.
 */
async function inlineVendored() {
  const keepRelative = {
    name: 'keep-relative-imports-external',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) =>
        args.kind === 'entry-point' || args.importer.includes('/node_modules/')
          ? undefined
          : { path: args.path, external: true },
      );
    },
  };
  // The link way's chunk (scripts/bundle.mjs, bundleLinkChunk) inlines lean-qr; tsc's qr.js (which would import it)
  // is in that chunk, so it goes, and the chunk's stale map.
  const inlined = new Set(['lean-qr']);
  for (const file of ['qr.js', 'qr.d.ts', 'qr.js.map', 'link-block.js.map'])
    rmSync(`dist/element/${file}`, { force: true });
  const common = {
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: true,
    allowOverwrite: true,
    logLevel: 'error',
    metafile: true,
  };
  const builds = [
    {
      ...common,
      entryPoints: ['dist/emulator/openapi.js'],
      outfile: 'dist/emulator/openapi.js',
      platform: 'node',
      minify: true, // 270 kB instead of 580 kB; the emulator's own code is small next to ajv's
      legalComments: 'none', // the licences are in THIRD-PARTY-LICENSES.txt
      // ajv is CommonJS: give its require() of Node built-ins a real require.
      banner: {
        js: "import { createRequire as __cpCreateRequire } from 'node:module';\nconst require = __cpCreateRequire(import.meta.url);",
      },
      plugins: [keepRelative],
    },
    {
      // The API client's openapi-fetch (small, ESM, no Node built-ins): neutral, so the client runs on any runtime.
      ...common,
      entryPoints: ['dist/api/client.js'],
      outfile: 'dist/api/client.js',
      platform: 'neutral',
      plugins: [keepRelative],
    },
    {
      // One file for the server and the browser alike: the wrapper is a client component (below).
      ...common,
      entryPoints: ['dist/element/react.js'],
      outfile: 'dist/element/react.js',
      platform: 'neutral',
      external: ['react', 'lit', 'lit/*'],
      plugins: [keepRelative, await litReactForEitherSide(common, inlined)],
    },
  ];
  for (const options of builds) {
    const result = await build(options);
    for (const input of Object.keys(result.metafile.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
      if (name) inlined.add(name);
    }
  }
  // The wrapper is a client component: its 'use client' must stay the first statement, where React frameworks read
  // it. esbuild keeps an entry's directive today; a bundler that drops it (some do, with a warning) gets it back here.
  const wrapper = readFileSync('dist/element/react.js', 'utf8');
  if (!/^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use client\1/.test(wrapper))
    writeFileSync('dist/element/react.js', `'use client';\n${wrapper}`);
  // tsc's maps of the rewritten files no longer match them.
  for (const file of ['dist/emulator/openapi.js.map', 'dist/element/react.js.map']) rmSync(file, { force: true });
  // The wrapper's types are its own (ConnectProviderProps); should they name @lit/react, ship its declarations beside.
  const types = readFileSync('dist/element/react.d.ts', 'utf8');
  if (/['"]@lit\/react['"]/.test(types)) {
    const litReactTypes = readFileSync('node_modules/@lit/react/development/create-component.d.ts', 'utf8');
    const { version } = JSON.parse(readFileSync('node_modules/@lit/react/package.json', 'utf8'));
    const header = `// @lit/react ${version}'s create-component.d.ts (BSD-3-Clause; see ../THIRD-PARTY-LICENSES.txt)\n`;
    writeFileSync('dist/element/lit-react.d.ts', header + litReactTypes.replace(/^\/\/# sourceMappingURL=.*$/m, ''));
    writeFileSync(
      'dist/element/react.d.ts',
      types.replaceAll("'@lit/react'", "'./lit-react.js'").replaceAll('"@lit/react"', '"./lit-react.js"'),
    );
  }
  const notices = [...inlined].sort().map((name) => {
    const dir = `node_modules/${name}`;
    const { version, license } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
    const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license'].find((f) => {
      try {
        return readFileSync(`${dir}/${f}`);
      } catch {
        return false;
      }
    });
    return `${name}@${version} (${license})\n\n${file ? readFileSync(`${dir}/${file}`, 'utf8').trim() : license}\n`;
  });
  writeFileSync(
    'dist/THIRD-PARTY-LICENSES.txt',
    `Third-party code inlined into this package's dist/:\n\n${notices.join('\n' + '-'.repeat(72) + '\n\n')}`,
  );
}

/**
 * @lit/react has a browser build and a server one (no layout effects, no suppressHydrationWarning), picked by the
 * `node` export condition. The wrapper cannot be split the same way: it is a client component, and a React framework
 * resolves a server component's import of it on the server, under `node`, then sends the browser that same file
 * (Next.js: the browser ran the server build, never set the element's properties and hydrated with a mismatch). So
 * both builds go inline, each resolved by esbuild under its own condition, and lit's `isServer` (split by that
 * condition inside lit, below the client boundary) picks one when the module runs.
 */
async function litReactForEitherSide(common, inlined) {
  const sides = {};
  for (const platform of ['browser', 'node']) {
    const result = await build({
      ...common,
      stdin: { contents: "export { createComponent } from '@lit/react';", resolveDir: '.' },
      platform,
      write: false,
      external: ['react'],
    });
    sides[platform] = result.outputFiles[0].text;
    for (const input of Object.keys(result.metafile.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
      if (name) inlined.add(name);
    }
  }
  const either = `import { isServer } from 'lit';
import { createComponent as inBrowsers } from 'lit-react:browser';
import { createComponent as onServers } from 'lit-react:node';
export const createComponent = isServer ? onServers : inBrowsers;`;
  return {
    name: 'lit-react-for-either-side',
    setup(b) {
      b.onResolve({ filter: /^@lit\/react$/ }, () => ({ path: 'either', namespace: 'lit-react' }));
      b.onResolve({ filter: /^lit-react:/ }, (args) => ({
        path: args.path.slice('lit-react:'.length),
        namespace: 'lit-react',
      }));
      b.onLoad({ filter: /.*/, namespace: 'lit-react' }, (args) => ({
        contents: args.path === 'either' ? either : sides[args.path],
        loader: 'js',
        resolveDir: '.',
      }));
    },
  };
}
