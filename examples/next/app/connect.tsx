// readme:start
'use client';
import { useState } from 'react';
import { ConnectProvider } from 'connect-provider/react';

export function Connect({ csrf }: { csrf: string }) {
  const [message, setMessage] = useState('');
  return (
    <>
      <ConnectProvider
        endpoint="/api/connect"
        provider="salesforce"
        requestHeaders={{ 'x-csrf-token': csrf }}
        onConnectSuccess={(e) => setMessage(`Connected! (${e.detail.connection.id})`)}
        onConnectError={(e) => setMessage(`Could not connect: ${e.detail.code}`)}
      />
      <p id="result">{message}</p>
    </>
  );
}
// readme:end
