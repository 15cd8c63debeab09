import { useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConnectIntegrations } from 'connect-provider/react';
import {
  entry,
  language,
  onLanguage,
  renderHeader,
  startLanguage,
  TEXTS,
  type Language,
  type TimelineEntry,
} from './shared.js';

function App() {
  const [lang, setLang] = useState<Language>(language);
  useEffect(() => onLanguage(setLang), []);
  const [lines, setLines] = useState<TimelineEntry[]>([]);
  // One handler for every event: a row's detail.provider names it (entry reads it), the list's own event is 'list'.
  const log = useCallback((event: Event) => setLines((all) => [entry(event), ...all]), []);
  const texts = TEXTS[lang];
  return (
    <main>
      <section className="card">
        <h2 id="title">{texts.title}</h2>
        <p id="intro">{texts.intro}</p>
        <ConnectIntegrations
          endpoint="/api/connect"
          disconnectable
          descriptions={texts.about}
          strings={texts.strings}
          onConnectIntegrationsLoaded={log}
          onConnectStart={log}
          onConnectPopup={log}
          onConnectPopupBlocked={log}
          onConnectConnection={log}
          onConnectStatus={log}
          onConnectSuccess={log}
          onConnectError={log}
          onConnectCancel={log}
          onConnectLoaded={log}
          onConnectDisconnect={log}
        />
      </section>
      <section className="card" lang="en" dir="ltr">
        <h2>Event timeline</h2>
        <p>Every event of the list and its rows, through the wrapper&apos;s on&lt;Event&gt; props, newest first.</p>
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

await startLanguage();
await renderHeader('react');
createRoot(document.querySelector('#root')!).render(<App />);
