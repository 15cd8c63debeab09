// readme:start
import 'connect-provider';
import type {} from 'connect-provider/vue';
// readme:end
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
