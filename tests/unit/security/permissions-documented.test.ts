// @vitest-environment node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * README "Permissions" must name every permission the shipped manifest asks for, at install or
 * optionally, and say which: a permission added to wxt.config.ts without a reason fails here.
 */
type Manifest = Record<string, unknown> & {
  permissions?: string[];
  host_permissions?: string[];
  optional_permissions?: string[];
  optional_host_permissions?: string[];
};

async function shippedManifest(browser: 'chrome' | 'firefox'): Promise<Manifest> {
  expect(process.env.DIAGNOSIS_PERMISSIONS_AT_INSTALL).toBeUndefined();
  const { default: config } = await import('../../../wxt.config');
  const manifest = config.manifest as (env: { browser: string }) => Manifest;
  return manifest({ browser });
}

/** Rows of the README's Permissions table: each permission named in backticks, with its "When". */
function documentedPermissions(): Map<string, string> {
  const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
  const section = readme.split(/^## Permissions$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]?.startsWith('`')) continue;
    for (const [, name] of cells[1].matchAll(/`([^`]+)`/g)) rows.set(name!, cells[2]!);
  }
  return rows;
}

describe('README Permissions', () => {
  it.each(['chrome', 'firefox'] as const)(
    'lists every permission of the %s manifest with when it is asked for',
    {
      timeout: 60_000,
    },
    async (browser) => {
      const manifest = await shippedManifest(browser);
      const documented = documentedPermissions();
      const atInstall = [...(manifest.permissions ?? []), ...(manifest.host_permissions ?? [])];
      const optional = [
        ...(manifest.optional_permissions ?? []),
        ...(manifest.optional_host_permissions ?? []),
      ];
      expect(atInstall.length).toBeGreaterThan(0);
      for (const name of atInstall) expect([name, documented.get(name)]).toEqual([name, 'at install']);
      for (const name of optional) expect([name, documented.get(name)]).toEqual([name, 'optional']);
      // Nothing documented that the manifest no longer asks for.
      expect([...documented.keys()].sort()).toEqual([...new Set([...atInstall, ...optional])].sort());
    },
  );

  it('reads the current tab through activeTab, never the tabs permission', async () => {
    const manifest = await shippedManifest('chrome');
    expect(manifest.permissions).not.toContain('tabs');
    expect(manifest.permissions).toContain('activeTab');
  });
});
