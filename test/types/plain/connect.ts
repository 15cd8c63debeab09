// The plain TypeScript snippets of docs/frameworks.md and docs/element.md, then cases that must not compile.
// readme:start
import 'connect-provider';
import { ConnectError } from 'connect-provider';

const element = document.createElement('connect-provider');
element.endpoint = '/api/connect';
element.provider = 'salesforce';
element.pollInterval = 500;
element.addEventListener('connect-success', (e) => console.log('connected', e.detail.connection.id));
element.addEventListener('connect-cancel', (e) => console.log('cancelled:', e.detail.reason));
document.body.append(element);

document.querySelector('#connect-now')?.addEventListener('click', async () => {
  try {
    const connection = await element.start();
    console.log(connection.status);
  } catch (error) {
    if (error instanceof ConnectError) console.warn(error.code, error.message);
  }
});
// readme:end

// readme:start
element.disconnectable = true;
element.strings = { connect: 'Mit {provider} verbinden', working: 'Mit {provider} verbunden' };
element.addEventListener('connect-loaded', (e) => console.log(e.detail.connection?.status ?? 'none'));
element.addEventListener('connect-disconnect', (e) => console.log('disconnected', e.detail.connection.id));
// readme:end

// Each line below must fail to compile; an `any` would let it pass (TS2578: unused directive).
// @ts-expect-error pollInterval is a number
element.pollInterval = 'fast';
// @ts-expect-error connect-success's detail has no `nope`
element.addEventListener('connect-success', (e) => console.log(e.detail.nope));
// @ts-expect-error the tag's type is the element's, which has no `nope`
document.querySelector('connect-provider')?.nope;
// @ts-expect-error strings has no key `nope`
element.strings = { nope: 'x' };
// @ts-expect-error connect-loaded's connection may be null
element.addEventListener('connect-loaded', (e) => console.log(e.detail.connection.id));
