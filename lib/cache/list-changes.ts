/**
 * The effect of one-click changes on a view of the two lists, following the worker's rule
 * (docs/service-api.md): adding a domain to one list removes it from the other first.
 */
import { canonicalHost } from '@/lib/filtering/domain-index';
import type { ListChange } from '@/lib/messaging/protocol';

export type ListName = ListChange['list'];
export type ChangeLike = Pick<ListChange, 'op' | 'list' | 'domain'>;

export interface ListDelta {
  added: Set<string>;
  removed: Set<string>;
}

export const otherList = (list: ListName): ListName => (list === 'whitelist' ? 'blocklist' : 'whitelist');

/** Net effect of changes applied in order; domains in canonical form. */
export function replayChanges(changes: Iterable<ChangeLike>): Record<ListName, ListDelta> {
  const delta: Record<ListName, ListDelta> = {
    whitelist: { added: new Set(), removed: new Set() },
    blocklist: { added: new Set(), removed: new Set() },
  };
  const set = (list: ListName, domain: string, present: boolean) => {
    (present ? delta[list].added : delta[list].removed).add(domain);
    (present ? delta[list].removed : delta[list].added).delete(domain);
  };
  for (const change of changes) {
    const domain = canonicalHost(change.domain);
    if (domain === '') continue;
    if (change.op === 'add') {
      set(otherList(change.list), domain, false);
      set(change.list, domain, true);
    } else {
      set(change.list, domain, false);
    }
  }
  return delta;
}

/** Where a domain is, as far as one-click actions are concerned. */
export type Membership = ListName | 'none';

/**
 * The change that puts a domain back where it was (the popup's Undo). Adding to the previous
 * list is enough even after a move: the worker removes it from the other list first.
 */
export function inverseChange<T extends ChangeLike>(change: T, before: Membership): T {
  if (before === 'none') return { ...change, op: 'remove' };
  return { ...change, op: 'add', list: before };
}
