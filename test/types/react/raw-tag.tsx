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
