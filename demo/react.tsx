import { useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConnectProvider } from 'connect-provider/react';
import { entry, INTEGRATIONS, renderHeader, ZENDESK_STRINGS, type TimelineEntry } from './shared.js';

function App() {
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
    onConnectLoaded: log(source),
    onConnectDisconnect: log(source),
  });
  return (
    <main>
      <section className="card">
        <h2>Integrations</h2>
        <p>Connect the tools your team uses. Each row reads your connection before you click.</p>
        <ul className="integrations">
          {INTEGRATIONS.map(({ provider, name, about }) => (
            <li key={provider}>
              <div className="about">
                <strong>{name}</strong>
                <span>{about}</span>
              </div>
              <ConnectProvider
                id={provider}
                endpoint="/api/connect"
                provider={provider}
                disconnectable
                strings={provider === 'zendesk' ? ZENDESK_STRINGS : {}}
                {...handlers(provider)}
              />
            </li>
          ))}
        </ul>
      </section>
      <section className="card">
        <h2>Event timeline</h2>
        <p>Every event the elements fire, through the wrapper&apos;s on&lt;Event&gt; props, newest first.</p>
        <ol className="timeline" id="timeline">
          {lines.length === 0 && <li className="empty">No events yet.</li>}
          {lines.map((line) => (
            <li key={line.id} className={line.tone} data-event={line.type} data-source={line.source}>
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
