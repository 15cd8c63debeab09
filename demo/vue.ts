import { createApp } from 'vue';
import 'connect-provider';
import App from './App.vue';
import { renderHeader } from './shared.js';

await renderHeader('vue');
createApp(App).mount('#app');
