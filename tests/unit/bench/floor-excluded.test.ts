// @vitest-environment node
import { describe, expect, it } from 'vitest';

/**
 * The floor pages (entrypoints/floor*) exist for `npm run bench` only: every build without
 * WXT_BENCH=floor must leave them out, so the shipped extension never contains them.
 */
describe('floor pages in builds', () => {
  it('a normal build drops the floor pages and keeps every other entrypoint', {
    timeout: 60_000,
  }, async () => {
    expect(process.env.WXT_BENCH).toBeUndefined();
    const { default: config } = await import('../../../wxt.config');
    const hook = (config.hooks as Record<string, (wxt: unknown, entrypoints: { name: string }[]) => void>)[
      'entrypoints:resolved'
    ];
    const entrypoints = ['background', 'floor', 'popup', 'floor-storage', 'options', 'floorplan'].map(
      (name) => ({ name }),
    );
    hook?.({}, entrypoints);
    expect(entrypoints.map((entrypoint) => entrypoint.name)).toEqual([
      'background',
      'popup',
      'options',
      'floorplan',
    ]);
  });

  it('a normal build writes no floor page', async () => {
    const { default: config } = await import('../../../wxt.config');
    const hook = (config.hooks as Record<string, (wxt: unknown, files: { relativeDest: string }[]) => void>)[
      'build:publicAssets'
    ];
    const files: { relativeDest: string }[] = [];
    hook?.({}, files);
    expect(files).toEqual([]);
  });
});
