// Must NOT compile under a new Angular 22 app's tsconfig (tsconfig.json): each line below is a mistake the server
// recipe in docs/frameworks.md avoids, and the type test names the error it expects of each.
import { AngularNodeAppEngine } from '@angular/ssr/node';
import { createConnectHandler } from 'connect-provider/server';

export const connect = createConnectHandler({
  // noPropertyAccessFromIndexSignature: an environment variable is read as process.env['PLATFORM_API_KEY'].
  apiKey: process.env.PLATFORM_API_KEY ?? 'dev-api-key',
  baseUrl: 'http://127.0.0.1:4010/v1',
  project: 'demo',
  authorize: () => null,
});

// allowedHosts is a list of host names, not one.
export const angularApp = new AngularNodeAppEngine({ allowedHosts: 'localhost' });
