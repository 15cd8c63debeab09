// The documentation's (docs/frameworks.md) server recipe for an Angular 22 SSR app: the `src/server.ts` that
// `ng new --ssr` writes, with the connect handler mounted before the static files and the Angular handler. Checked
// by ngc under the new app's tsconfig: `process.env.PLATFORM_API_KEY` would not compile there
// (noPropertyAccessFromIndexSignature), nor a misspelt engine option (wrong-server.ts must fail).
// readme:start
import {
  AngularNodeAppEngine,
  createNodeRequestHandler,
  isMainModule,
  writeResponseToNodeResponse,
} from '@angular/ssr/node';
import express from 'express';
import { join } from 'node:path';
import { createConnectHandler, toNodeListener } from 'connect-provider/server';

const browserDistFolder = join(import.meta.dirname, '../browser');

// Your app's own sessions (here a map keyed by a cookie; yours is a database or a JWT).
const sessions = new Map([
  ['demo-session', { teamId: 'acme', teamName: 'Acme Inc.', userId: 'user-ada', userName: 'Ada' }],
]);

// process.env['NAME'], not process.env.NAME: a new app's tsconfig sets noPropertyAccessFromIndexSignature.
const connect = createConnectHandler({
  apiKey: process.env['PLATFORM_API_KEY'] ?? 'dev-api-key', // stays on the server
  baseUrl: process.env['PLATFORM_BASE_URL'] ?? 'http://127.0.0.1:4010/v1',
  project: process.env['PLATFORM_PROJECT'] ?? 'demo',
  async authorize(request) {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    const user = sid ? sessions.get(sid) : undefined;
    if (!user) return null; // 401
    return { groupRef: user.teamId, groupName: user.teamName, consumerRef: user.userId, consumerName: user.userName };
  },
});

const app = express();
// The host names Angular renders pages for; it answers any other Host with a 400.
const angularApp = new AngularNodeAppEngine({ allowedHosts: ['localhost', 'app.example.com'] });

// The element's routes first: the static files and the Angular handler would answer them otherwise.
app.use('/api/connect', toNodeListener(connect));

app.use(
  express.static(browserDistFolder, {
    maxAge: '1y',
    index: false,
    redirect: false,
  }),
);

app.use((req, res, next) => {
  angularApp
    .handle(req)
    .then((response) => (response ? writeResponseToNodeResponse(response, res) : next()))
    .catch(next);
});

if (isMainModule(import.meta.url) || process.env['pm_id']) {
  const port = process.env['PORT'] || 4000;
  app.listen(port, (error) => {
    if (error) {
      throw error;
    }
    console.log(`Node Express server listening on http://localhost:${port}`);
  });
}

// The request handler `ng serve` and `ng build` use (the dev server runs this file too).
export const reqHandler = createNodeRequestHandler(app);
// readme:end
