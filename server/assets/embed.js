/*
 * linkconfig embed: loads a published link config into Alap on a web page (docs/publishing.md#embed).
 *
 *   <script src="https://alap.example.org/alap.iife.js"></script>
 *   <script src="https://links.example.org/published/embed.js" data-config="site-a/menu" defer></script>
 *
 * Reads `configs/<data-config>` next to its own URL (the server's `/published`), revalidating through the
 * browser's HTTP cache (a conditional request with the ETag it holds), then calls `Alap.registerConfig`,
 * or `Alap.updateRegisteredConfig` when a later read brings another version. `data-live` (seconds,
 * default 60, at least 5) reads again at that pace while the page is visible; `data-name` registers the
 * config under that Alap config name. Tells the page `linkconfig:config` ({ name, etag }) or
 * `linkconfig:error` ({ name, error }) on the script element. Plain ES2017: no eval, nothing inline.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var name = script.getAttribute('data-config');
  if (!name) return;
  var alapName = script.getAttribute('data-name') || undefined;
  var url = new URL('configs/' + encodeURIComponent(name), script.src).href;
  var etag = null;
  var registered = false;

  function tell(type, detail) {
    script.dispatchEvent(new CustomEvent(type, { detail: detail }));
  }

  function apply(config, tag) {
    var alap = window.Alap;
    if (!alap || typeof alap.registerConfig !== 'function') {
      throw new Error('Alap is not loaded: put its script before embed.js');
    }
    if (typeof alap.validateConfig === 'function') {
      config = alap.validateConfig(config, { provenance: 'storage:remote' });
    }
    if (registered && typeof alap.updateRegisteredConfig === 'function') {
      alap.updateRegisteredConfig(config, alapName);
    } else {
      alap.registerConfig(config, alapName);
    }
    registered = true;
    etag = tag;
    if (typeof alap.defineAlapLink === 'function') alap.defineAlapLink();
    tell('linkconfig:config', { name: name, etag: tag });
  }

  async function load() {
    try {
      var response = await fetch(url, {
        cache: 'no-cache',
        credentials: 'omit',
      });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      var tag = response.headers.get('ETag');
      if (registered && tag !== null && tag === etag) return;
      var entry = await response.json();
      apply(entry.config, tag);
    } catch (error) {
      tell('linkconfig:error', { name: name, error: String(error) });
    }
  }

  load();
  if (!script.hasAttribute('data-live')) return;
  var seconds = Number(script.getAttribute('data-live')) || 60;
  setInterval(
    function () {
      if (document.visibilityState !== 'hidden') load();
    },
    Math.max(5, seconds) * 1000,
  );
})();
