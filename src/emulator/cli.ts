#!/usr/bin/env node
// connect-provider-emulator: runs the platform emulator.
import { parseArgs } from 'node:util';
import { createEmulator } from './emulator.js';
import { EmulatorDataError } from './state-file.js';

const USAGE = `usage: connect-provider-emulator [options]
  --port N            port to listen on (default 4010; 0 picks a free one)
  --host H            address to listen on (default 127.0.0.1)
  --api-key K         the key X-Api-Key must carry (default dev-api-key)
  --verify-delay MS   ms from consent to working / bad_credentials (default 1500)
  --data FILE         keep state in FILE across restarts (default: memory only)
  --url-format F      json (default, as the spec) or text (as the real service)
  --public-url URL    origin browsers reach the emulator at, for the URLs it hands out
                      (default: the address it listens on; never a request's Host header)
  --cors-origin O     allow browser calls from origin O (repeatable; * for any). Default: with the
                      default API key, loopback origins only (localhost, *.localhost, 127.x, [::1]);
                      with an --api-key of your own, any origin
  --allowed-host H    answer requests whose Host is H (repeatable; * for any). Default: with the
                      default API key, loopback names only (localhost, *.localhost, 127.x, [::1])
                      and the --public-url host, against DNS rebinding; with an --api-key of your
                      own, any
  --token-secret S    secret that signs Bearer JWTs, 16+ characters
                      (default: a random one, kept in the --data file)
  --help              this text`;

function fail(message: string): never {
  console.error(`connect-provider-emulator: ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string', default: 'dev-api-key' },
      'verify-delay': { type: 'string', default: '1500' },
      data: { type: 'string' },
      'url-format': { type: 'string', default: 'json' },
      'public-url': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
      'token-secret': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, got ${values.port}`);
const verifyDelay = Number(values['verify-delay']);
if (!Number.isFinite(verifyDelay) || verifyDelay < 0)
  fail(`--verify-delay must be milliseconds >= 0, got ${values['verify-delay']}`);
const urlFormat = values['url-format'];
if (urlFormat !== 'json' && urlFormat !== 'text') fail(`--url-format must be json or text, got ${urlFormat}`);
if (values['api-key'] === '') fail('--api-key must not be empty');
if (values['token-secret'] !== undefined && values['token-secret'].length < 16)
  fail('--token-secret must be 16 characters or more');
if (values['public-url'] !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values['public-url'])) {
  fail(`--public-url must be an origin such as http://localhost:4010, got ${values['public-url']}`);
}

try {
  const emulator = createEmulator({
    apiKey: values['api-key'],
    verifyDelay,
    urlFormat,
    ...(values.data ? { dataFile: values.data } : {}),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
    ...(values['cors-origin'] ? { corsOrigins: values['cors-origin'] } : {}),
    ...(values['allowed-host'] ? { allowedHosts: values['allowed-host'] } : {}),
    ...(values['token-secret'] ? { jwtSecret: values['token-secret'] } : {}),
  });
  const info = await emulator.listen(port, values.host);
  console.log(`listening on ${info.url}`);
  console.log(`base url: ${info.baseUrl}`);
  console.log(`search url: ${info.searchUrl}`);
  console.log(`api key: ${emulator.apiKey}`);
  console.log(`bearer token: ${emulator.bearerToken}`);
  console.log(`cors origins: ${emulator.corsOrigins === '*' ? 'any (*)' : emulator.corsOrigins}`);
  console.log(`project: proj_demo (name demo), org: org_demo${values.data ? `, data: ${values.data}` : ''}`);
  // close() waits for the data file's last write.
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  if (error instanceof EmulatorDataError || error instanceof TypeError) fail((error as Error).message);
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`port ${port} on ${values.host} is in use`);
  throw error;
}
