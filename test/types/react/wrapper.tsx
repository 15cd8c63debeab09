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
