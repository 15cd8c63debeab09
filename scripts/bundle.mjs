// Builds the self-contained browser bundle dist/connect-provider.js (lit
// included, minified) with esbuild, and reports its size.
//   node scripts/bundle.mjs            write dist/connect-provider.js
//   node scripts/bundle.mjs --stdout   print the bundle's bytes (for measuring)
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { minify } from 'terser';

/** Collapses the whitespace of css`` templates: esbuild leaves template text as written. */
export const minifyCssTemplates = {
  name: 'minify-css-templates',
  setup(b) {
    b.onLoad({ filter: /\.styles\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const contents = source.replace(/css`([^`]*)`/g, (_m, text) => {
        const css = text
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};,])\s*/g, '$1')
          .replace(/:\s+/g, ':')
          .replace(/;}/g, '}')
          .trim();
        return 'css`' + css + '`';
      });
      return { contents, loader: 'ts' };
    });
  },
};

/** Bundles src/index.ts: esbuild resolves and compiles, terser squeezes (about 2% smaller than esbuild alone). */
export async function bundle({ write = true, external = [] } = {}) {
  const result = await build({
    entryPoints: ['src/index.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    conditions: ['production'],
    external,
    tsconfig: 'tsconfig.json',
    legalComments: 'none',
    plugins: [minifyCssTemplates],
    write: false,
    outfile: 'dist/connect-provider.js',
    logLevel: 'error',
  });
  const { code } = await minify(result.outputFiles[0].text, {
    module: true,
    ecma: 2022,
    compress: { passes: 3 },
    mangle: true,
    format: { comments: false },
  });
  const bytes = new TextEncoder().encode(code);
  if (write) {
    await mkdir('dist', { recursive: true });
    await writeFile('dist/connect-provider.js', bytes);
  }
  return bytes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--stdout')) process.stdout.write(await bundle({ write: false }));
  else await bundle();
}
