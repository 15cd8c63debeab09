// The documentation's (README.md, docs/frameworks.md) React 19 snippet for the raw tag, then cases that must not compile.
// readme:start
import 'connect-provider';
import type {} from 'connect-provider/react-jsx';

export function ConnectCrm({ onDone }: { onDone: (id: string) => void }) {
  return (
    <connect-provider
      endpoint="/api/connect"
      provider="hubspot"
      poll-interval="500"
      onconnect-success={(e) => onDone(e.detail.connection.id)}
      onconnect-error={(e) => console.warn(e.detail.code, e.detail.message)}
    />
  );
}
// readme:end

// Each line below must fail to compile; an `any` anywhere would let it pass (TS2578: unused directive).
export function Wrong() {
  return (
    <>
      {/* @ts-expect-error pollInterval is a number */}
      <connect-provider endpoint="/api/connect" pollInterval="fast" />
      {/* @ts-expect-error poll-interval takes numbers only */}
      <connect-provider endpoint="/api/connect" poll-interval="fast" />
      {/* @ts-expect-error connect-cancel's reason is 'popup_closed' | 'cancelled' */}
      <connect-provider
        endpoint="/api/connect"
        onconnect-cancel={(e: CustomEvent<{ reason: number }>) => e.detail.reason}
      />
      <connect-provider
        endpoint="/api/connect"
        onconnect-success={(e) => {
          // @ts-expect-error connect-success's detail has no `nope`
          console.log(e.detail.nope);
        }}
      />
    </>
  );
}

// At rest: disconnectable and the events of the connection at rest, typed.
export function RawAtRest({ onGone }: { onGone: (id: string) => void }) {
  return (
    <connect-provider
      endpoint="/api/connect"
      provider="hubspot"
      disconnectable
      onconnect-loaded={(e) => console.log(e.detail.connection?.status ?? 'none')}
      onconnect-disconnect={(e) => onGone(e.detail.connection.id)}
    />
  );
}

export function RawReadOnly() {
  return (
    <>
      {/* @ts-expect-error state is written by the element (read-only) */}
      <connect-provider endpoint="/api/connect" state="working" />
      {/* @ts-expect-error connection-status is written by the element (read-only) */}
      <connect-provider endpoint="/api/connect" connection-status="none" />
      {/* @ts-expect-error connection is read-only */}
      <connect-provider endpoint="/api/connect" connection={undefined} />
      {/* @ts-expect-error disconnectable is a boolean */}
      <connect-provider endpoint="/api/connect" disconnectable="yes" />
      {/* @ts-expect-error connect-loaded's connection may be null */}
      <connect-provider endpoint="/api/connect" onconnect-loaded={(e) => e.detail.connection.id} />
      {/* @ts-expect-error connect-disconnect's detail is { connection } */}
      <connect-provider
        endpoint="/api/connect"
        onconnect-disconnect={(e: CustomEvent<{ id: string }>) => e.detail.id}
      />
    </>
  );
}
