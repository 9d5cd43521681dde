import { pino } from 'pino';
import { createApp } from './src/http/app.js';
import { createServices } from './src/services/services.js';
import { createSqliteConfigRepository } from './src/storage/sqlite-config-repository.js';
import { generateDataset } from './bench/dataset.js';
import * as seq from './bench/request-sequences.js';
import { rmSync } from 'node:fs';
rmSync('/tmp/prof-db2', { recursive: true, force: true });
const repository = createSqliteConfigRepository({ path: '/tmp/prof-db2/x.db' });
const services = createServices({ repository });
const app = createApp({ services, logger: pino({ level: 'silent' }) });
for (const g of generateDataset({ configs: 50, links: 500 })) await services.configs.put(g.name, g.config);
const scope = { configs: 50, links: 500 };
const all: Record<string, seq.RequestSequence> = {
  get: seq.getSequence(scope), q: seq.searchWordSequence(), none: seq.noMatchSequence(), tag: seq.tagSequence(), regex: seq.regexSequence(),
  query1: seq.queryOneSequence(scope), query3: seq.queryThreeSequence(scope), cherry: seq.cherryPickSequence(scope),
};
const only = process.argv[2]; const N = Number(process.argv[3] ?? 2000);
for (const [name, s] of Object.entries(all)) {
  if (only && only !== 'all' && !only.split(',').includes(name)) continue;
  const send = async (i: number) => { const r = s.at(i % s.size); const res = await app.request(`http://x${r.path}`, { method: r.method, headers: r.body ? { 'content-type': 'application/json' } : {}, body: r.body }); if (res.status !== 200) throw new Error(`${name} ${res.status} ${await res.text()}`); return (await res.text()).length; };
  for (let i = 0; i < 200; i++) await send(i + 5000);
  const c0 = process.cpuUsage(); let bytes = 0;
  for (let i = 0; i < N; i++) bytes += await send(i);
  const c = process.cpuUsage(c0); const us = (c.user + c.system) / N;
  console.log(name.padEnd(8), us.toFixed(0).padStart(6), 'cpu µs/req', (1e6 / us).toFixed(0).padStart(7), 'req/s', (bytes / N / 1024).toFixed(1), 'KiB');
}
