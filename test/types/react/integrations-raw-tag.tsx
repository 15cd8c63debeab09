// The documentation's (docs/element.md) React 19 snippet for the raw <connect-integrations> tag, then cases that
// must not compile.
// readme:start
import 'connect-provider/integrations';
import type {} from 'connect-provider/react-jsx';

export function Integrations({ onConnected }: { onConnected: (provider: string) => void }) {
  return (
    <connect-integrations
      endpoint="/api/connect"
      providers="hubspot salesforce slack"
      disconnectable
      descriptions={{ hubspot: 'Contacts and deals', slack: 'Alerts in a channel' }}
      strings={{ search: 'Find an integration' }}
      onconnect-integrations-loaded={(e) => console.log(e.detail.integrations.map((i) => i.displayName))}
      onconnect-success={(e) => onConnected(e.detail.provider)}
    />
  );
}
// readme:end

// Each case below must fail to compile; an `any` anywhere would let it pass (TS2578: unused directive).
export function WrongList() {
  return (
    <>
      {/* @ts-expect-error the list has no `providres` (a misspelt `providers`) */}
      <connect-integrations endpoint="/api/connect" providres="hubspot" />
      {/* @ts-expect-error the list has no `provider`: its rows do */}
      <connect-integrations endpoint="/api/connect" provider="hubspot" />
      {/* @ts-expect-error descriptions maps a provider's name to plain text, not a string */}
      <connect-integrations endpoint="/api/connect" descriptions="hubspot: Contacts and deals" />
      {/* @ts-expect-error descriptions' values are text */}
      <connect-integrations endpoint="/api/connect" descriptions={{ hubspot: 1 }} />
      {/* @ts-expect-error strings has no key `nope` (neither the list's nor a row's) */}
      <connect-integrations endpoint="/api/connect" strings={{ nope: 'x' }} />
      {/* @ts-expect-error disconnectable is a boolean */}
      <connect-integrations endpoint="/api/connect" disconnectable="yes" />
      {/* @ts-expect-error the loaded detail's integrations are { provider, displayName, connection }, not names */}
      <connect-integrations
        endpoint="/api/connect"
        onconnect-integrations-loaded={(e: CustomEvent<{ integrations: string[] }>) => e}
      />
      <connect-integrations
        endpoint="/api/connect"
        onconnect-integrations-loaded={(e) => {
          // @ts-expect-error a row's connection may be null
          console.log(e.detail.integrations[0]?.connection.id);
        }}
      />
      {/* @ts-expect-error a row's connect-success names its provider as a string */}
      <connect-integrations endpoint="/api/connect" onconnect-success={(e: CustomEvent<{ provider: number }>) => e} />
      <connect-integrations
        endpoint="/api/connect"
        onconnect-success={(e) => {
          // @ts-expect-error connect-success's detail has no `nope`
          console.log(e.detail.nope);
        }}
      />
    </>
  );
}
