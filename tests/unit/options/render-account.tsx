import { render, screen } from '@testing-library/preact';
import { AccountManagement } from '@/components/options/AccountManagement';
import type { AccountServices } from '@/components/options/account-context';

/** Renders account management and waits until the account has loaded. */
export async function renderAccount(services: AccountServices) {
  const view = render(<AccountManagement {...services} />);
  await screen.findByRole('heading', { name: 'Profiles' });
  return view;
}

export function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}
