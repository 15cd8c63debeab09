// The documentation's (README.md, docs/frameworks.md) snippet for the React wrapper, then cases that must not compile.
// readme:start
import { ConnectProvider } from 'connect-provider/react';

export function ConnectCrm({ onDone }: { onDone: (id: string) => void }) {
  return (
    <ConnectProvider
      endpoint="/api/connect"
      provider="hubspot"
      onConnectSuccess={(e) => onDone(e.detail.connection.id)}
      onConnectError={(e) => console.warn(e.detail.code)}
    />
  );
}
// readme:end
import { useRef } from 'react';
import type { ConnectProvider as ConnectProviderElement } from 'connect-provider';

// Each case below must fail to compile; an `any` would let it pass (TS2578: unused directive).
export function Wrong() {
  return (
    <>
      {/* @ts-expect-error pollInterval is a number */}
      <ConnectProvider endpoint="/api/connect" pollInterval="fast" />
      <ConnectProvider
        endpoint="/api/connect"
        onConnectSuccess={(e) => {
          // @ts-expect-error connect-success's detail has no `nope`
          console.log(e.detail.nope);
        }}
      />
    </>
  );
}

// The wrapper's props are the element's writable properties, its events and the host's HTML attributes: nothing
// read-only, nothing of Lit's.
export function AtRest({ onGone }: { onGone: (id: string) => void }) {
  const ref = useRef<ConnectProviderElement>(null);
  return (
    <ConnectProvider
      ref={ref}
      id="crm"
      className="connect"
      endpoint="/api/connect"
      provider="hubspot"
      disconnectable
      requestHeaders={{ 'x-csrf-token': 'token' }}
      onConnectLoaded={(e) => console.log(e.detail.connection?.status ?? 'none')}
      onConnectDisconnect={(e) => onGone(e.detail.connection.id)}
    >
      Connect your CRM
    </ConnectProvider>
  );
}

export function ReadOnly() {
  return (
    <>
      {/* @ts-expect-error state is written by the element (read-only) */}
      <ConnectProvider endpoint="/api/connect" state="working" />
      {/* @ts-expect-error connection-status is written by the element (read-only) */}
      <ConnectProvider endpoint="/api/connect" connection-status="none" />
      {/* @ts-expect-error held is a read-only test hook */}
      <ConnectProvider endpoint="/api/connect" held={0} />
      {/* @ts-expect-error connection is read-only */}
      <ConnectProvider endpoint="/api/connect" connection={undefined} />
      {/* @ts-expect-error error is read-only */}
      <ConnectProvider endpoint="/api/connect" error={undefined} />
      {/* @ts-expect-error renderRoot is Lit's */}
      <ConnectProvider endpoint="/api/connect" renderRoot={document.body} />
      {/* @ts-expect-error updateComplete is Lit's */}
      <ConnectProvider endpoint="/api/connect" updateComplete={Promise.resolve(true)} />
      {/* @ts-expect-error requestUpdate is Lit's */}
      <ConnectProvider endpoint="/api/connect" requestUpdate={() => {}} />
      {/* @ts-expect-error start is a method, not a prop */}
      <ConnectProvider endpoint="/api/connect" start={() => Promise.reject(new Error())} />
      {/* @ts-expect-error disconnectable is a boolean */}
      <ConnectProvider endpoint="/api/connect" disconnectable="yes" />
      {/* @ts-expect-error connect-loaded's connection may be null */}
      <ConnectProvider endpoint="/api/connect" onConnectLoaded={(e) => e.detail.connection.id} />
      {/* @ts-expect-error connect-disconnect's detail is { connection } */}
      <ConnectProvider endpoint="/api/connect" onConnectDisconnect={(e: CustomEvent<{ id: string }>) => e.detail.id} />
      {/* @ts-expect-error no such event */}
      <ConnectProvider endpoint="/api/connect" onConnectNope={() => {}} />
    </>
  );
}
