// A site's own script: reads the published config with Alap's createRemoteStore and registers it.
import { createRemoteStore } from './alap-storage.js';

const params = new URLSearchParams(location.search);
const store = createRemoteStore({ baseUrl: `${params.get('api')}/published` });
window.Alap.defineAlapLink();
try {
  const config = await store.load(params.get('config'));
  if (config === null) {
    document.body.dataset.state = 'missing';
  } else {
    window.Alap.registerConfig(config);
    document.body.dataset.state = 'loaded';
  }
} catch (error) {
  document.body.dataset.state = 'error';
  document.body.dataset.error = String(error);
}
