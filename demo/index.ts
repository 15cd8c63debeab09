import { renderHeader, startLanguage } from './shared.js';

await startLanguage();
await renderHeader(null);
