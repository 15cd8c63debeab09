// Builds the self-contained browser bundle dist/connect-provider.js (lit
// included, minified) with esbuild and terser, and lit's baseline the same way
// (scripts/size.mjs and scripts/bench.ts both use these).
//   node scripts/bundle.mjs            write dist/connect-provider.js
//   node scripts/bundle.mjs --stdout   print the bundle's bytes (for measuring)
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { minifyHTMLLiterals } from '@literals/html-css-minifier';
import { minify } from 'terser';

/**
 * Minifies the html`` and css`` templates of the element's sources (esbuild
 * leaves template text as written). @literals/html-css-minifier gave 12 bytes
 * less gzip than the CSS-only regex this replaced (9,967 against 9,979).
 */
export const minifyTemplateLiterals = {
  name: 'minify-template-literals',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]element[\\/][^\\/]+\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const result = await minifyHTMLLiterals(source, { fileName: path });
      return { contents: result ? result.code : source, loader: 'ts' };
    });
  },
};

/** esbuild bundles and compiles, terser squeezes (about 2% smaller than esbuild alone): the one pipeline for every size. */
export async function minifiedBuild(options) {
  const result = await build({
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    conditions: ['production'],
    legalComments: 'none',
    write: false,
    logLevel: 'error',
    ...options,
  });
  const { code } = await minify(result.outputFiles[0].text, {
    module: true,
    ecma: 2022,
    compress: { passes: 3 },
    mangle: true,
    format: { comments: false },
  });
  return new TextEncoder().encode(code);
}

/**
 * The link way's block and QR encoder (src/element/link-block.ts, dist/element/link-block.js) are a chunk of their own,
 * imported only when the link way is taken: every bundle leaves the element's `import('./link-block.js')` to load it,
 * from `at` (the chunk's path relative to the bundle). A user's bundler splits it the same way.
 */
export const linkChunkExternal = (at = './link-block.js') => ({
  name: 'link-chunk-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/link-block\.js$/ }, (args) =>
      /[\\/]link-way\.[jt]s$/.test(args.importer) ? { path: at, external: true } : undefined,
    );
  },
});

/**
 * The link way's chunk, dist/element/link-block.js: src/element/link-block.ts (plain DOM, no lit) with lean-qr's nano
 * encoder bundled in, minified, so that an element-only user installs lit and nothing else (lean-qr is a
 * devDependency).
 */
export async function bundleLinkChunk({ write = true } = {}) {
  const bytes = await minifiedBuild({ entryPoints: ['src/element/link-block.ts'], tsconfig: 'tsconfig.json' });
  if (write) {
    await mkdir('dist/element', { recursive: true });
    await writeFile('dist/element/link-block.js', bytes);
  }
  return bytes;
}

/**
 * Bundles src/integrations.ts (both tags, everything the main entry exports) into the self-contained bundle. The link
 * way's chunk stays apart, imported as ./element/link-block.js relative to the bundle (written there with it).
 */
export async function bundle({ write = true, external = [] } = {}) {
  if (write) await bundleLinkChunk();
  const bytes = await minifiedBuild({
    entryPoints: ['src/integrations.ts'],
    external,
    tsconfig: 'tsconfig.json',
    plugins: [minifyTemplateLiterals, linkChunkExternal('./element/link-block.js')],
    outfile: 'dist/connect-provider.js',
  });
  if (write) {
    await mkdir('dist', { recursive: true });
    await writeFile('dist/connect-provider.js', bytes);
  }
  return bytes;
}

/**
 * Bundles each locale pack of src/locales/ into dist/locales/<lang>.js, self-contained and minified (the registry
 * it registers in comes along), for a bundler and a plain <script type="module"> alike. Returns bytes by language.
 */
export async function bundleLocales({ write = true } = {}) {
  const { readdir } = await import('node:fs/promises');
  const packs = {};
  for (const name of (await readdir('src/locales')).filter((file) => file.endsWith('.ts')).sort()) {
    const lang = name.slice(0, -3);
    packs[lang] = await minifiedBuild({ entryPoints: [`src/locales/${name}`], tsconfig: 'tsconfig.json' });
    if (write) {
      await mkdir('dist/locales', { recursive: true });
      await writeFile(`dist/locales/${lang}.js`, packs[lang]);
    }
  }
  return packs;
}

/**
 * Minifies the html`` and css`` templates of the element's modules tsc wrote under `dir` (dist/element), as the
 * self-contained bundle has them: a user's bundler leaves template text as written. Their source maps go, being stale.
 */
export async function minifyElementTemplates(dir = 'dist/element') {
  const { readdir, rm } = await import('node:fs/promises');
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.js')) continue;
    const path = `${dir}/${name}`;
    const source = await readFile(path, 'utf8');
    const result = await minifyHTMLLiterals(source, { fileName: path });
    if (!result) continue;
    await writeFile(path, result.code.replace(/\n\/\/# sourceMappingURL=.*$/, ''));
    await rm(`${path}.map`, { force: true });
  }
}

/** What lit alone weighs when an element uses LitElement, html, css and nothing, built as the element is. */
// What the element builds on (Lit's ReactiveElement and css), built the same way:
// the difference to the element's bundle is the element's own share.
export const LIT_BASELINE_NAME = 'lit baseline (LitElement, html, css, nothing)';
export function bundleLitBaseline() {
  return minifiedBuild({
    stdin: {
      contents: "export { LitElement, html, css, nothing } from 'lit';",
      resolveDir: process.cwd(),
      loader: 'js',
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--stdout')) process.stdout.write(await bundle({ write: false }));
  else await bundle();
}
