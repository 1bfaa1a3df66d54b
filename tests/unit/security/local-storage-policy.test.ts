import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { THEME_CACHE_KEY } from '@/lib/theme/first-paint';

describe('what the pages keep in localStorage', () => {
  it('is each named in the privacy policy', () => {
    const policy = readFileSync(join(__dirname, '..', '..', '..', 'PRIVACY.md'), 'utf8');
    const section = policy.slice(policy.indexOf('`localStorage`'), policy.indexOf('## 5.'));
    for (const key of [THEME_CACHE_KEY]) expect(section, key).toContain(`\`${key}\``);
  });
});
