/**
 * The config list says where each config is kept: only on the server ("not available offline" while
 * the server is out of reach), only in this browser ("not yet on the server"), or both (no marker).
 */
import {
  addLinkAndSave,
  configButton,
  configMarker,
  createConfig,
  expectNothingPending,
  openApp,
  openConfig,
} from '../support/app.js';
import { expect, test } from '../support/fixtures.js';

test('the list marks configs kept only on the server or only in this browser', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.slow();
  const put = await request.put(`${baseURL}/configs/markers-server`, {
    data: { allLinks: { s: { url: 'https://example.com/s' } } },
  });
  expect(put.status()).toBe(204);
  await openApp(page, baseURL!);
  await expect(configMarker(page, 'markers-server')).toHaveText(
    'on the server only',
  );
  await expect(configMarker(page, 'demo')).toHaveText('on the server only');

  // Opening a config keeps it in this browser too.
  await openConfig(page, 'markers-server');
  await expect(configMarker(page, 'markers-server')).toHaveCount(0);

  await context.setOffline(true);
  await expect(configMarker(page, 'demo')).toHaveText('not available offline');
  await expect(page.getByTestId('list-notice')).toHaveText(
    'Offline: only configs kept in this browser can be opened.',
  );
  // The open config stays open; the list says why "demo" cannot be opened now.
  await configButton(page, 'demo').click();
  await expect(page.getByTestId('list-message')).toContainText(
    '“demo” is kept on the server only, so it opens once the server can be reached; “markers-server” stays open.',
  );
  await expect(page.getByTestId('editor-heading')).toHaveText('markers-server');

  await createConfig(page, 'markers-local');
  await addLinkAndSave(page, { id: 'l', url: 'https://example.com/l' });
  await expect(configMarker(page, 'markers-local')).toHaveText(
    'not yet on the server',
  );
  await expect(page.getByTestId('draft-state')).toHaveText(
    'Saved in this browser; it will be sent to the server.',
  );

  await context.setOffline(false);
  await expectNothingPending(page);
  await expect(configMarker(page, 'markers-local')).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(configMarker(page, 'demo')).toHaveText('on the server only');
});
