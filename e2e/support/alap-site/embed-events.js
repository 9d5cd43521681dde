// A site's own script: shows what embed.js reported on the page (for the test to read).
const embed = document.querySelector('script[data-config]');
embed.addEventListener('linkconfig:config', (event) => {
  document.body.dataset.state = 'loaded';
  document.body.dataset.etag = event.detail.etag;
});
embed.addEventListener('linkconfig:error', (event) => {
  document.body.dataset.state = 'error';
  document.body.dataset.error = event.detail.error;
});
