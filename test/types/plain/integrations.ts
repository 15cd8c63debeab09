// The plain TypeScript snippet of docs/element.md for <connect-integrations>, then cases that must not compile.
// readme:start
import 'connect-provider/integrations';

const list = document.createElement('connect-integrations');
list.endpoint = '/api/connect';
list.providers = 'hubspot salesforce slack';
list.disconnectable = true;
list.descriptions = { hubspot: 'Contacts and deals', slack: 'Alerts in a channel' };
list.strings = { search: 'Find an integration', connect: 'Connect {provider}' };
list.addEventListener('connect-integrations-loaded', (e) =>
  console.log(e.detail.integrations.map((i) => `${i.displayName}: ${i.connection?.status ?? 'none'}`)),
);
list.addEventListener('connect-success', (e) => console.log(e.detail.provider, e.detail.connection.id));
document.body.append(list);
// readme:end

// Each line below must fail to compile; an `any` would let it pass (TS2578: unused directive).
// @ts-expect-error the list has no `providres` (a misspelt `providers`)
list.providres = 'hubspot';
// @ts-expect-error descriptions maps a provider's name to plain text, not a string
list.descriptions = 'hubspot: Contacts and deals';
// @ts-expect-error descriptions' values are text
list.descriptions = { hubspot: 1 };
// @ts-expect-error strings has no key `nope` (neither the list's nor a row's)
list.strings = { nope: 'x' };
// @ts-expect-error disconnectable is a boolean
list.disconnectable = 'yes';
// @ts-expect-error the loaded detail's integrations are { provider, displayName, connection }, not names
list.addEventListener('connect-integrations-loaded', (e: CustomEvent<{ integrations: string[] }>) => e);
// @ts-expect-error a row's connection may be null
list.addEventListener('connect-integrations-loaded', (e) => console.log(e.detail.integrations[0]?.connection.id));
// @ts-expect-error a row's connect-success names its provider as a string
list.addEventListener('connect-success', (e: CustomEvent<{ provider: number }>) => e);
// @ts-expect-error connect-success's detail has no `nope`
list.addEventListener('connect-success', (e) => console.log(e.detail.nope));
// @ts-expect-error the tag's type is the list's, which has no `nope`
document.querySelector('connect-integrations')?.nope;
// @ts-expect-error the tag's type is the list's, not the row's: it has no `provider`
document.querySelector('connect-integrations')?.provider;

// The list's own events: a change of a row's connection, and a list that could not be read.
list.addEventListener('connect-integrations-change', (e) =>
  console.log(e.detail.connected, e.detail.attention, e.detail.total, e.detail.integrations[0]?.state),
);
list.addEventListener('connect-integrations-error', (e) => console.log(e.detail.code, e.detail.problem?.status));
list.addEventListener('connect-integrations-loaded', (e) => console.log(e.detail.error?.message));
// @ts-expect-error the change's counts are numbers
list.addEventListener('connect-integrations-change', (e: CustomEvent<{ connected: string }>) => e);
// @ts-expect-error an error's code is one of the element's codes
list.addEventListener('connect-integrations-error', (e) => e.detail.code === 'nope');
// @ts-expect-error a loaded error's message is text
list.addEventListener('connect-integrations-loaded', (e) => e.detail.error?.message.toFixed());
