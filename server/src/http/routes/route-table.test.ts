import { describe, expect, it } from 'vitest';
import { REST_ROUTES, apiPathPattern, buildRouteTable } from './route-table.js';

describe('apiPathPattern (the web page service worker leaves these paths to the network)', () => {
  const api = new RegExp(apiPathPattern());

  it('matches every REST route of the table, with any config name', () => {
    for (const route of REST_ROUTES) {
      expect(api.test(route.path.replace('{name}', 'demo'))).toBe(true);
    }
    expect(api.test('/configs/a%20b')).toBe(true);
    expect(api.test('/expressions/check')).toBe(true);
  });

  it('leaves the page and its assets alone', () => {
    for (const path of ['/', '/index.html', '/assets/index-abc.js', '/sw.js']) {
      expect(api.test(path)).toBe(false);
    }
    expect(api.test('/configs/a/b')).toBe(false);
    expect(api.test('/searching')).toBe(false);
  });

  it('follows the table, not a list of its own', () => {
    const one = REST_ROUTES.filter((r) => r.path === '/search');
    expect(new RegExp(apiPathPattern(one)).test('/query')).toBe(false);
    expect(new RegExp(apiPathPattern(one)).test('/search')).toBe(true);
  });
});

describe('the config a route names (its access checked from the path, before the body)', () => {
  it('is declared by every route that acts on one config, and found in its path', () => {
    const named = REST_ROUTES.filter((r) => r.configNameAt !== undefined);
    expect(named.map((r) => r.id).sort()).toEqual([
      'configs.get',
      'configs.patch',
      'configs.put',
      'configs.remove',
      'history.diff',
      'history.list',
      'history.restore',
      'history.revision',
      'links.check',
      'links.health',
      'publish.publish',
      'publish.status',
      'publish.unpublish',
      'published.get',
      'tags.rename',
    ]);
    for (const route of named) {
      expect(route.pathParams.get(route.configNameAt ?? -1)).toBe(
        route.operation.configName,
      );
    }
  });

  it('refuses an operation whose declared config name is not in its path', () => {
    const [get] = REST_ROUTES.filter((r) => r.id === 'configs.get');
    if (get === undefined) throw new Error('no configs.get');
    const misplaced = {
      ...get.operation,
      configName: 'name',
      meta: {
        ...get.operation.meta,
        openapi: { ...get.operation.meta.openapi, path: '/configs' as const },
      },
    };
    expect(() => buildRouteTable({ x: { y: misplaced } })).toThrow(
      /x\.y: configName "name" is not a parameter of \/configs/,
    );
  });

  it('refuses an operation under {name} that declares no config name', () => {
    const [get] = REST_ROUTES.filter((r) => r.id === 'configs.get');
    if (get === undefined) throw new Error('no configs.get');
    const undeclared = { ...get.operation, configName: undefined };
    expect(() => buildRouteTable({ x: { y: undeclared } })).toThrow(
      /x\.y: \/configs\/\{name\} names a config \(\{name\}\) but the operation declares no configName/,
    );
  });
});
