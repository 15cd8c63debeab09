// `npm run demo`: Vite serves demo/ with the emulator and the connect handler
// mounted in-process (demo/server/plugin.ts). The demo imports the package
// from src/, as an app would import it from node_modules.
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';
import { connectDemo } from './demo/server/plugin.js';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  root: 'demo',
  appType: 'mpa',
  plugins: [
    // Both tags are custom elements to Vue's compiler: <connect-provider> and <connect-integrations>.
    vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('connect-') } } }),
    connectDemo({
      emulatorPort: Number(process.env.DEMO_EMULATOR_PORT ?? 4010),
      verifyDelay: Number(process.env.DEMO_VERIFY_DELAY ?? 1500),
    }),
  ],
  resolve: {
    alias: [
      { find: /^connect-provider\/react$/, replacement: src('element/react.ts') },
      { find: /^connect-provider\/integrations$/, replacement: src('integrations.ts') },
      // A locale pack, as `import 'connect-provider/locales/de'` finds dist/locales/de.js in an app.
      { find: /^connect-provider\/locales\/([\w-]+)$/, replacement: src('locales/$1.ts') },
      { find: /^connect-provider$/, replacement: src('index.ts') },
    ],
  },
  server: { host: '127.0.0.1', port: Number(process.env.DEMO_PORT ?? 5173) },
  build: { outDir: '../dist/demo', emptyOutDir: true },
});
