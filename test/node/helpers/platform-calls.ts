// Counts what the platform receives from a handler: a `fetch` option that records each request's method, path and
// query before passing it to the real fetch (or to a stand-in platform).

export interface PlatformCall {
  method: string;
  path: string;
  query: Record<string, string>;
}

export interface CountingFetch {
  fetch: typeof fetch;
  calls: PlatformCall[];
}

/** A fetch that records every request and then hands it to `next` (the global fetch by default). */
export function countingFetch(next: typeof fetch = (input, init) => fetch(input, init)): CountingFetch {
  const calls: PlatformCall[] = [];
  const counting: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    calls.push({ method: method.toUpperCase(), path: url.pathname, query: Object.fromEntries(url.searchParams) });
    return next(input, init);
  };
  return { fetch: counting, calls };
}
