import { describe, expect, it } from 'vitest';
import { KEEP_PARSED_MIN_CHARS } from '../event-loop.js';
import { ReceivedJson } from '../received-json.js';
import { createMemoryConfigRepository } from '../storage/memory-config-repository.js';
import { createServices } from './services.js';

/** A config whose JSON text is at least `chars` long, received as the HTTP layer hands it over. */
function received(chars: number): ReceivedJson {
  const config = {
    allLinks: { a: { url: 'https://example.com/a', description: '' } },
  };
  const padding = Math.max(0, chars - JSON.stringify(config).length);
  config.allLinks.a.description = 'x'.repeat(padding);
  const text = JSON.stringify(config);
  return new ReceivedJson(JSON.parse(text), text);
}

async function storedAfterPut(body: ReceivedJson): Promise<unknown> {
  const services = createServices({
    repository: createMemoryConfigRepository(),
    cacheBytes: 64 * 1024 * 1024,
  });
  await services.configs.put('c', body);
  return services.caches.versions.peek('c')?.stored;
}

describe('ConfigService: the value a PUT parsed', () => {
  it('is kept by the version of a large config, so its first read does not parse it again', async () => {
    const body = received(KEEP_PARSED_MIN_CHARS);
    expect(body.text.length).toBeGreaterThanOrEqual(KEEP_PARSED_MIN_CHARS);
    expect(await storedAfterPut(body)).toBe(body.value);
  });

  it('is not kept for a smaller config, which is parsed again on its first read', async () => {
    const body = received(120 * 1024);
    const stored = await storedAfterPut(body);
    expect(stored).not.toBe(body.value);
    expect(stored).toEqual(body.value);
  });
});
