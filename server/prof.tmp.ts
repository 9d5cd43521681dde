// Scratch: in-process distinct-request throughput per scenario (not committed).
import { pino } from 'pino';
import { createApp } from './src/http/app.js';
import { createServices } from './src/services/services.js';
import { createSqliteConfigRepository } from './src/storage/sqlite-config-repository.js';
import { generateDataset, configName } from './bench/dataset.js';
import { WORDS, TAGS } from './bench/vocabulary.js';
import { rmSync } from 'node:fs';
rmSync('/tmp/prof-db', { recursive: true, force: true });
const repository = createSqliteConfigRepository({ path: '/tmp/prof-db/x.db' });
const services = createServices({ repository });
const app = createApp({ services, logger: pino({ level: 'silent' }) });
for (const g of generateDataset({ configs: 50, links: 500 })) await services.configs.put(g.name, g.config);
const only = process.argv[2];
const N = Number(process.argv[3] ?? 3000);
const cases: Record<string, (i: number) => [string, RequestInit?]> = {
  get: (i) => [`/configs/${configName(i % 50)}`],
  q: (i) => { const w = WORDS[i % 100]!; const c = i % 3 === 0 ? w.toUpperCase() : i % 3 === 1 ? w : w[0]!.toUpperCase() + w.slice(1); return [`/search?q=${c}&fields=${i % 2 ? 'label,description' : 'description,label'}`]; },
  none: (i) => [`/search?q=zzqx${i}`],
  tag: (i) => [`/search?tag=${TAGS[i % TAGS.length]}&limit=${100 + (i % 50)}`],
  regex: (i) => [`/search?regex=${encodeURIComponent(`${WORDS[i % 100]}|${WORDS[(i * 7) % 100]}`)}&fields=label,description`],
  query1: (i) => ['/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expression: `.${TAGS[i % 30]} | .${TAGS[(i * 3) % 30]}`, configName: configName(i % 50) }) }],
  query3: (i) => ['/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expression: `.${TAGS[i % 30]} + .${TAGS[(i * 3) % 30]}`, configs: [configName(i % 50), configName((i * 7 + 1) % 50), configName((i * 13 + 2) % 50)] }) }],
  cherry: (i) => ['/cherry-pick', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expression: `@favorites - .${TAGS[i % 30]}, l${i % 500}`, source: configName(i % 50) }) }],
};
for (const [name, make] of Object.entries(cases)) {
  if (only && only !== 'all' && only !== name) continue;
  for (let i = 0; i < 300; i++) { const [p, init] = make(i + 100000); const r = await app.request(`http://x${p}`, init); await r.text(); }
  const t = performance.now();
  let bytes = 0;
  for (let i = 0; i < N; i++) { const [p, init] = make(i); const r = await app.request(`http://x${p}`, init); if (r.status !== 200) throw new Error(`${name} ${r.status} ${await r.text()}`); bytes += (await r.text()).length; }
  const us = (performance.now() - t) / N * 1000;
  console.log(name.padEnd(8), us.toFixed(0).padStart(6), 'µs/req', (1e6 / us).toFixed(0).padStart(7), 'req/s', (bytes / N / 1024).toFixed(1), 'KiB');
}
