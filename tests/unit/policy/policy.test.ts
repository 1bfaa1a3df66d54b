/**
 * The administrator's policy as the extension reads it (lib/policy): nothing set is no policy, a
 * good policy says what it manages, and a bad field is reported while the rest still applies.
 */
import { describe, expect, it } from 'vitest';
import { isSectionClosed, managedScope } from '@/lib/policy/managed';
import { readPolicy } from '@/lib/policy/policy';
import { validateBaseUrl } from '@/lib/validation';
import { failingManagedStorage, fakeManagedStorage } from '../../fakes/fake-managed-storage';

const OFFICE = { name: 'Office', baseUrl: 'https://dns.example.com', form: 'B', key: 'office-key-123' };

async function scopeOf(policy: Record<string, unknown>) {
  return managedScope(await readPolicy(fakeManagedStorage(policy)));
}

describe('reading the policy', () => {
  it('reads no policy when nothing is set, the area is missing or its read fails', async () => {
    expect(await readPolicy(fakeManagedStorage({}))).toEqual({ state: 'none' });
    expect(await readPolicy(undefined)).toEqual({ state: 'none' });
    expect(await readPolicy(failingManagedStorage)).toEqual({ state: 'none' });
    const scope = managedScope(await readPolicy(undefined));
    expect(scope.managed).toBe(false);
    expect(scope.popupChanges && scope.menuChanges && scope.pageDiagnosis).toBe(true);
    expect(isSectionClosed(scope, 'whitelist')).toBe(false);
  });

  it('reads accounts, the lock and the closed surfaces', async () => {
    const reading = await readPolicy(
      fakeManagedStorage({
        accounts: [OFFICE],
        lockRequired: true,
        popupChanges: false,
        menuChanges: false,
        closedOptionsSections: ['whitelist', 'accounts'],
        pageDiagnosis: false,
      }),
    );
    expect(reading.state).toBe('set');
    if (reading.state !== 'set') return;
    expect(reading.policy.accounts).toEqual([OFFICE]);
    expect(reading.policy.accountsComplete).toBe(true);
    expect(reading.policy.problems).toEqual([]);
    const scope = managedScope(reading);
    expect(scope).toMatchObject({
      managed: true,
      lockRequired: true,
      popupChanges: false,
      menuChanges: false,
      pageDiagnosis: false,
      accountNames: ['Office'],
    });
    // Page diagnosis and the menu closed close their sections too.
    expect([...scope.closedSections].sort()).toEqual(['accounts', 'diagnosis', 'menu', 'whitelist']);
    expect(isSectionClosed(scope, 'blocklist')).toBe(false);
  });

  it('leaves what a policy does not name as it is without one', async () => {
    const scope = await scopeOf({ lockRequired: true });
    expect(scope).toMatchObject({ managed: true, lockRequired: true, popupChanges: true, menuChanges: true });
    expect(scope.closedSections.size).toBe(0);
  });

  it('normalises an account as the Accounts section would (address reduced to its origin)', async () => {
    const reading = await readPolicy(
      fakeManagedStorage({ accounts: [{ ...OFFICE, name: ' Office ', baseUrl: 'dns.example.com/api/v1/' }] }),
    );
    expect(reading.state === 'set' && reading.policy.accounts[0]).toMatchObject({
      name: 'Office',
      baseUrl: 'https://dns.example.com',
    });
  });
});

describe('a bad policy', () => {
  it('reports a bad account without its key, keeps the good ones and marks the list incomplete', async () => {
    const reading = await readPolicy(
      fakeManagedStorage({
        accounts: [
          OFFICE,
          { name: 'Home', baseUrl: 'ftp://x', form: 'A', key: 'home-secret-key' },
          { name: 'Lab' },
        ],
      }),
    );
    if (reading.state !== 'set') throw new Error('expected a policy');
    expect(reading.policy.accounts.map((account) => account.name)).toEqual(['Office']);
    expect(reading.policy.accountsComplete).toBe(false);
    expect(reading.policy.problems).toHaveLength(2);
    // Says what is wrong with the field, as the Accounts section would.
    const address = validateBaseUrl('ftp://x');
    expect(reading.policy.problems[0]).toBe(`The account “Home”: ${address.ok ? '' : address.message}`);
    expect(reading.policy.problems.join(' ')).toContain('Lab');
    expect(reading.policy.problems.join(' ')).not.toContain('home-secret-key');
  });

  it('refuses a second account of the same name', async () => {
    const reading = await readPolicy(
      fakeManagedStorage({ accounts: [OFFICE, { ...OFFICE, name: 'office', key: 'other-key-456' }] }),
    );
    if (reading.state !== 'set') throw new Error('expected a policy');
    expect(reading.policy.accounts).toHaveLength(1);
    expect(reading.policy.accountsComplete).toBe(false);
    expect(reading.policy.problems).toHaveLength(1);
  });

  it('takes a restriction written wrong at its strict side and says so', async () => {
    const scope = await scopeOf({
      popupChanges: 'no',
      menuChanges: 0,
      lockRequired: 'yes',
      closedOptionsSections: ['whitelist', 'no-such-section'],
    });
    expect(scope).toMatchObject({ popupChanges: false, menuChanges: false, lockRequired: true });
    expect(isSectionClosed(scope, 'accounts')).toBe(true);
    expect(scope.problems).toHaveLength(4);
    expect(scope.problems[0]).toMatch(/lockRequired|popupChanges|menuChanges|closedOptionsSections/);
  });

  it('accounts that are not a list are reported, and the list counts as incomplete', async () => {
    const reading = await readPolicy(fakeManagedStorage({ accounts: 'Office' }));
    expect(reading.state === 'set' && reading.policy).toMatchObject({
      accounts: [],
      accountsComplete: false,
    });
  });
});
