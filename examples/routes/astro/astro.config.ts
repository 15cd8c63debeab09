import { defineConfig, envField } from 'astro/config';

// readme:start
export default defineConfig({
  // The platform's settings, typed in astro:env/server and read when the server runs (secrets are never bundled).
  env: {
    schema: {
      PLATFORM_API_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      PLATFORM_BASE_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      PLATFORM_PROJECT: envField.string({ context: 'server', access: 'secret', optional: true }),
    },
  },
});
// readme:end
