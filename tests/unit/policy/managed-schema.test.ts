/**
 * public/managed_schema.json is what Chrome checks an administrator's policy against: it must name
 * exactly what lib/policy reads, or a policy Chrome accepts would be ignored (or refused) here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_FORMS } from '@/lib/api/forms';
import { SECTIONS } from '@/lib/options/routes';
import { CLOSABLE_SECTIONS, POLICY_FIELDS } from '@/lib/policy/policy';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const schema = JSON.parse(readFileSync(join(ROOT, 'public', 'managed_schema.json'), 'utf8'));

describe('managed_schema.json', () => {
  it('names the fields the extension reads, no more, no less', () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...POLICY_FIELDS].sort());
  });

  it('offers the API forms and the closable sections the extension knows', () => {
    expect(schema.properties.accounts.items.properties.form.enum).toEqual(API_FORMS);
    expect(schema.properties.closedOptionsSections.items.enum).toEqual([...CLOSABLE_SECTIONS]);
    const addresses = new Set<string>(SECTIONS.map((section) => section.id));
    expect(CLOSABLE_SECTIONS.filter((id) => !addresses.has(id))).toEqual([]);
  });

  it('is declared in the Chrome manifest', () => {
    const config = readFileSync(join(ROOT, 'wxt.config.ts'), 'utf8');
    expect(config).toContain("storage: { managed_schema: 'managed_schema.json' }");
  });
});
