// The documentation's (docs/element.md) snippet for the React wrapper of <connect-integrations>, then cases that
// must not compile.
// readme:start
import { ConnectIntegrations } from 'connect-provider/react';

export function Integrations({ csrf, onConnected }: { csrf: string; onConnected: (provider: string) => void }) {
  return (
    <ConnectIntegrations
      endpoint="/api/connect"
      providers="hubspot salesforce slack"
      disconnectable
      descriptions={{ hubspot: 'Contacts and deals', slack: 'Alerts in a channel' }}
      strings={{ search: 'Find an integration' }}
      requestHeaders={{ 'x-csrf-token': csrf }}
      onConnectIntegrationsLoaded={(e) => console.log(e.detail.integrations.map((i) => i.displayName))}
      onConnectSuccess={(e) => onConnected(e.detail.provider)}
    />
  );
}
// readme:end
import { useRef } from 'react';
import type { ConnectIntegrations as ConnectIntegrationsElement } from 'connect-provider/integrations';

// The ref is the list element; the host's HTML attributes pass through.
export function WithRef() {
  const ref = useRef<ConnectIntegrationsElement>(null);
  return <ConnectIntegrations ref={ref} id="integrations" className="integrations" endpoint="/api/connect" />;
}

// Each case below must fail to compile; an `any` would let it pass (TS2578: unused directive).
export function WrongList() {
  return (
    <>
      {/* @ts-expect-error the list has no `providres` (a misspelt `providers`) */}
      <ConnectIntegrations endpoint="/api/connect" providres="hubspot" />
      {/* @ts-expect-error the list has no `provider`: its rows do */}
      <ConnectIntegrations endpoint="/api/connect" provider="hubspot" />
      {/* @ts-expect-error descriptions maps a provider's name to plain text, not a string */}
      <ConnectIntegrations endpoint="/api/connect" descriptions="hubspot: Contacts and deals" />
      {/* @ts-expect-error descriptions' values are text */}
      <ConnectIntegrations endpoint="/api/connect" descriptions={{ hubspot: 1 }} />
      {/* @ts-expect-error strings has no key `nope` (neither the list's nor a row's) */}
      <ConnectIntegrations endpoint="/api/connect" strings={{ nope: 'x' }} />
      {/* @ts-expect-error disconnectable is a boolean */}
      <ConnectIntegrations endpoint="/api/connect" disconnectable="yes" />
      <ConnectIntegrations
        endpoint="/api/connect"
        // @ts-expect-error the loaded detail's integrations are { provider, displayName, connection }, not names
        onConnectIntegrationsLoaded={(e: CustomEvent<{ integrations: string[] }>) => e}
      />
      <ConnectIntegrations
        endpoint="/api/connect"
        onConnectIntegrationsLoaded={(e) => {
          // @ts-expect-error a row's connection may be null
          console.log(e.detail.integrations[0]?.connection.id);
        }}
      />
      {/* @ts-expect-error a row's connect-success names its provider as a string */}
      <ConnectIntegrations endpoint="/api/connect" onConnectSuccess={(e: CustomEvent<{ provider: number }>) => e} />
      <ConnectIntegrations
        endpoint="/api/connect"
        onConnectSuccess={(e) => {
          // @ts-expect-error connect-success's detail has no `nope`
          console.log(e.detail.nope);
        }}
      />
      <ConnectIntegrations
        endpoint="/api/connect"
        onConnectIntegrationsChange={(e) => console.log(e.detail.connected, e.detail.attention, e.detail.total)}
        onConnectIntegrationsError={(e) => console.log(e.detail.code, e.detail.message)}
      />
      <ConnectIntegrations
        endpoint="/api/connect"
        // @ts-expect-error the change's counts are numbers
        onConnectIntegrationsChange={(e: CustomEvent<{ connected: string }>) => e}
      />
      <ConnectIntegrations
        endpoint="/api/connect"
        onConnectIntegrationsError={(e) => {
          // @ts-expect-error an error's code is one of the element's codes
          return e.detail.code === 'nope';
        }}
      />
      {/* @ts-expect-error no such event (the list's is onConnectIntegrationsLoaded) */}
      <ConnectIntegrations endpoint="/api/connect" onConnectIntegrationsLoad={() => {}} />
      {/* @ts-expect-error updateComplete is Lit's */}
      <ConnectIntegrations endpoint="/api/connect" updateComplete={Promise.resolve(true)} />
    </>
  );
}
