// Bodies that cost the data file the most bytes each request can store: every string at its character limit and made
// of control characters (six bytes each in the file: \u0001), metadata of many short keys (each on its own indented
// line in the file) up to its 4 KiB as JSON.

/** `length` characters costing six bytes each in JSON text, starting with `tag` (so refs differ). */
export const costly = (length: number, tag = '') => tag + '\u0001'.repeat(length - tag.length);

/** providerMetadata at its most (LIMITS.metadataBytes as JSON), of two-character keys: the most lines in the file. */
export function costlyMetadata(): Record<string, number> {
  const metadata: Record<string, number> = {};
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  // `"ab":0,` is 7 bytes: 585 of them fit in 4,096 with the braces.
  for (let i = 0; i < 585; i++) metadata[letters[Math.floor(i / letters.length)] + letters[i % letters.length]] = 0;
  return metadata;
}

/** A generate-connection body for PayPal (client credentials and 64 scopes): the largest connection a request makes. */
export function costlyConnection(i: number) {
  return {
    provider: 'paypal',
    groupRef: costly(1024, `g${i}-`),
    groupName: costly(1024),
    consumerRef: costly(1024, `c${i}-`),
    consumerName: costly(1024),
    providerWorkspaceRef: costly(1024),
    providerMetadata: costlyMetadata(),
    oauth2ClientCredentials: {
      clientId: costly(4096),
      clientSecret: costly(4096),
      scopes: Array.from({ length: 64 }, () => costly(256)),
    },
  };
}

/** An oauth-connect body at every limit: the largest consent session a request makes. */
export function costlyConsent(i: number) {
  return {
    projectId: 'demo',
    provider: 'hubspot',
    groupRef: costly(1024, `g${i}-`),
    groupName: costly(1024),
    consumerRef: costly(1024, `c${i}-`),
    consumerName: costly(1024),
    providerWorkspaceRef: costly(1024),
    providerMetadata: costlyMetadata(),
  };
}
