/**
 * The configs the `/published` tests read: one link each, marked with a word the tests look for in
 * answers (`AMARK` …), so a test can tell whose links an answer shows.
 */
import { createTestApp } from './test-app.js';
import type { TestApp, TestAppOptions } from './test-app.js';

export const SITE_A = 'https://site-a.example';
export const SITE_B = 'https://site-b.example';
export const OTHER = 'https://elsewhere.example';

/** A config of one link tagged `nyc` and `bridge`, its id, label and host made of `mark`. */
export const markedConfig = (mark: string): Record<string, unknown> => ({
  allLinks: {
    [`${mark}1`]: {
      label: `${mark} bridge`,
      url: `https://${mark.toLowerCase()}.example/`,
      tags: ['nyc', 'bridge'],
    },
  },
});

/** The published configs with their origins (`null`: any). */
export const PUBLISHED: readonly [string, string, string[] | null][] = [
  ['a/menu', 'AMARK', [SITE_A]],
  ['b/menu', 'BMARK', [SITE_B]],
  ['any/menu', 'ANYMARK', null],
];

/**
 * A server holding `a/menu` for site A, `b/menu` for site B, `any/menu` for every site and `never/menu`
 * not published; the configs are written with `headers` (a key, where the server asks for one).
 */
export async function originsScene(
  options: TestAppOptions = {},
  headers: Record<string, string> = {},
): Promise<TestApp> {
  const t = createTestApp(options);
  for (const [name, mark, origins] of PUBLISHED) {
    await t.put(name, markedConfig(mark), headers);
    await t.services.publish.publish(name, { origins });
  }
  await t.put('never/menu', markedConfig('NEVERMARK'), headers);
  return t;
}
