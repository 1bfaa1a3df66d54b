import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { OtherAccountChangesSection } from '@/components/options/OtherAccountChanges';
import { requestSchema } from '@/lib/messaging/protocol';
import { discardForAccount, keepForAccount } from '@/lib/outbox';
import { apiKeyItem, connectionItem, type OutboxEntry, outboxItem } from '@/lib/settings/storage';
import { accountIdFor, fingerprintOf } from '../account-ids';

const BASE = 'https://my.cleanbrowsing.org';
const OLD = accountIdFor('A', BASE, 'old-key');
const NOW = accountIdFor('A', BASE, 'new-key');

const entry = (id: string, domain: string, account: string): OutboxEntry => ({
  id,
  change: { op: 'add', list: 'whitelist', domain, profile: 'kids', source: 'popup' },
  account,
  createdAt: 1,
  attempts: 1,
  nextAttemptAt: 2,
});

beforeEach(async () => {
  fakeBrowser.reset();
  // The worker's side of 'other-account-changes' (entrypoints/background/jobs.ts).
  fakeBrowser.runtime.onMessage.addListener((message: unknown) => {
    const request = requestSchema.parse(message);
    if (request.type !== 'other-account-changes') return undefined;
    const decide = request.action === 'keep' ? keepForAccount : discardForAccount;
    return decide(request.account, request.ids).then((count) => ({ count }));
  });
  await apiKeyItem.setValue('new-key');
  await connectionItem.setValue({ baseUrl: BASE, form: 'A' });
});
afterEach(cleanup);

describe('changes waiting for another account', () => {
  it('are listed with their account, never the key; kept, they wait for it', async () => {
    await outboxItem.setValue([entry('o1', 'games.example', OLD), entry('n1', 'mine.example', NOW)]);
    render(<OtherAccountChangesSection />);
    const section = await screen.findByRole('region', { name: 'Changes waiting for another account' });
    expect(
      within(section).getByText(`${BASE} (/api), key fingerprint ${fingerprintOf('old-key').slice(0, 8)}`),
    ).toBeTruthy();
    expect(
      within(section).getByText('Waiting to add games.example to the whitelist of profile kids.'),
    ).toBeTruthy();
    expect(within(section).queryByText(/mine\.example/)).toBeNull();
    expect(section.textContent).not.toContain('old-key');

    fireEvent.click(within(section).getByRole('button', { name: 'Send to that account when it is back' }));
    await within(section).findByText('1 change is kept for that account.');
    expect(await outboxItem.getValue()).toMatchObject([{ id: 'o1', keptForAccount: true }, { id: 'n1' }]);
    await waitFor(() =>
      expect(
        within(section).queryByRole('button', { name: 'Send to that account when it is back' }),
      ).toBeNull(),
    );
  });

  it('are discarded only after a confirmation', async () => {
    await outboxItem.setValue([entry('o1', 'games.example', OLD), entry('n1', 'mine.example', NOW)]);
    render(<OtherAccountChangesSection />);
    const section = await screen.findByRole('region', { name: 'Changes waiting for another account' });
    fireEvent.click(within(section).getByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard these changes?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await outboxItem.getValue()).toHaveLength(2);

    fireEvent.click(within(section).getByRole('button', { name: 'Discard' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Discard' }));
    await screen.findByText('1 change discarded.');
    expect(await outboxItem.getValue()).toMatchObject([{ id: 'n1' }]);
  });

  it('show nothing while every waiting change is the configured account’s', async () => {
    await outboxItem.setValue([entry('n1', 'mine.example', NOW)]);
    const { container } = render(<OtherAccountChangesSection />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.textContent).toBe('');
  });
});
