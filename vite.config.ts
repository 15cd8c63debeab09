// Vite: the self-contained browser bundle (dist/connect-provider.js, lit
// included, minified) and the demo's dev server.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    lib: {
      entry: 'src/index.ts',
      formats: ['es'],
      fileName: () => 'connect-provider.js',
    },
    rolldownOptions: {
      output: { minify: true },
    },
  },
});
