import { useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConnectProvider } from 'connect-provider/react';
import { entry, PROVIDERS, renderHeader, type TimelineEntry } from './shared.js';

function App() {
  const [provider, setProvider] = useState('salesforce');
  const [lines, setLines] = useState<TimelineEntry[]>([]);
  const log = useCallback((source: string) => (event: Event) => setLines((all) => [entry(source, event), ...all]), []);
  const handlers = (source: string) => ({
    onConnectStart: log(source),
    onConnectPopup: log(source),
    onConnectPopupBlocked: log(source),
    onConnectConnection: log(source),
    onConnectStatus: log(source),
    onConnectSuccess: log(source),
    onConnectError: log(source),
    onConnectCancel: log(source),
  });
  return (
    <main>
      <div className="column">
        <section className="card">
          <h2>Connect an account</h2>
          <p>Pick a provider, click, and answer the consent page in the popup.</p>
          <div className="row">
            <label htmlFor="provider">Provider</label>
            <select id="provider" value={provider} onChange={(e) => setProvider(e.target.value)}>
              {PROVIDERS.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </div>
          <ConnectProvider id="connect" endpoint="/api/connect" provider={provider} {...handlers('connect')} />
        </section>
        <section className="card">
          <h2>
            Reconnect <code>conn_demo</code>
          </h2>
          <p>Acme's HubSpot connection has bad credentials. Only Acme's users may reconnect it.</p>
          <ConnectProvider
            id="reconnect"
            endpoint="/api/connect"
            provider="hubspot"
            connectionId="conn_demo"
            {...handlers('reconnect')}
          />
        </section>
      </div>
      <section className="card">
        <h2>Event timeline</h2>
        <p>Every event the elements fire, through the wrapper's on&lt;Event&gt; props.</p>
        <ol className="timeline" id="timeline">
          {lines.length === 0 && <li className="empty">No events yet.</li>}
          {lines.map((line) => (
            <li key={line.id} className={line.tone} data-event={line.type}>
              <span className="time">{line.time}</span>
              <span className="source">{line.source}</span>
              <span className="type">{line.type}</span>
              <span className="detail">{line.detail}</span>
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}

await renderHeader('react');
createRoot(document.querySelector('#root')!).render(<App />);
