// A server component: it reads the CSRF cookie and hands its value to the client component. It renders the wrapper
// itself too, for a row that needs no handler: data props (strings, plain objects) pass from a server component to
// the wrapper, a client component; functions such as onConnectSuccess do not.
import { cookies } from 'next/headers';
import { ConnectProvider } from 'connect-provider/react';
import { Connect } from './connect';

export default async function Page() {
  const csrf = (await cookies()).get('csrf')?.value;
  return (
    <main>
      <h1>Integrations</h1>
      {csrf ? (
        <>
          <Connect csrf={csrf} />
          <ConnectProvider
            id="hubspot"
            endpoint="/api/connect"
            provider="hubspot"
            requestHeaders={{ 'x-csrf-token': csrf }}
          />
        </>
      ) : (
        <a href="/dev-login">Sign in (development)</a>
      )}
    </main>
  );
}
