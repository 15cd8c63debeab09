import { createApp } from 'vue';
import 'connect-provider/integrations';
import App from './App.vue';
import { renderHeader, startLanguage } from './shared.js';

await startLanguage();
await renderHeader('vue');
createApp(App).mount('#app');
