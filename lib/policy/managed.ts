/**
 * What the administrator's policy manages, as the pages and the worker ask it: a pure function of
 * the policy (./policy.ts), so each surface decides the same way (docs/managed-deployment.md).
 */
import { CLOSABLE_SECTIONS, type ClosableSection, type Policy, type PolicyReading } from './policy';

export interface ManagedScope {
  /** A policy is set: the options page says the organization manages the extension. */
  managed: boolean;
  /** The passphrase lock must be on (the lock itself is another module's; this only reads it). */
  lockRequired: boolean;
  /** Whitelist, Blocklist, temporary allow and unbreak from the popup. */
  popupChanges: boolean;
  /** The right-click menu's items and the keyboard shortcuts. */
  menuChanges: boolean;
  /** Page diagnosis may run. */
  pageDiagnosis: boolean;
  /** Options sections (lib/options/routes.ts addresses) whose settings cannot be changed. */
  closedSections: ReadonlySet<ClosableSection>;
  /** The names of the accounts the policy sets up. */
  accountNames: readonly string[];
  /** What was wrong with the policy, for the options page. */
  problems: readonly string[];
}

const UNMANAGED: ManagedScope = {
  managed: false,
  lockRequired: false,
  popupChanges: true,
  menuChanges: true,
  pageDiagnosis: true,
  closedSections: new Set(),
  accountNames: [],
  problems: [],
};

function closedBy(policy: Policy): Set<ClosableSection> {
  const closed = new Set(policy.closedSections);
  // Without page diagnosis there is nothing to set in its section.
  if (!policy.pageDiagnosis) closed.add('diagnosis');
  // Menu and shortcuts closed: their section's choices would change nothing.
  if (!policy.menuChanges) closed.add('menu');
  return new Set(CLOSABLE_SECTIONS.filter((section) => closed.has(section)));
}

export function managedScope(reading: PolicyReading): ManagedScope {
  if (reading.state === 'none') return UNMANAGED;
  const { policy } = reading;
  return {
    managed: true,
    lockRequired: policy.lockRequired,
    popupChanges: policy.popupChanges,
    menuChanges: policy.menuChanges,
    pageDiagnosis: policy.pageDiagnosis,
    closedSections: closedBy(policy),
    accountNames: policy.accounts.map((account) => account.name),
    problems: policy.problems,
  };
}

/** Whether options section `id` is closed to changes. */
export const isSectionClosed = (scope: ManagedScope, id: string): boolean =>
  (scope.closedSections as ReadonlySet<string>).has(id);
