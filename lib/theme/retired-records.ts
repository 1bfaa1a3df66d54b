/**
 * Records earlier versions kept in the pages' localStorage to open the popup sooner (the storage
 * keys it last read, fingerprints of checked values, the texts it showed). Nothing reads them now;
 * a page removes them when it is idle, so no copy of anything outlives the version that made it.
 */
const RETIRED = ['earlyReadKeys', 'vouchedValues', 'messageTexts'] as const;

export function forgetRetiredRecords(store: Pick<Storage, 'removeItem'> | undefined): void {
  try {
    for (const key of RETIRED) store?.removeItem(key);
  } catch {
    // No localStorage: nothing was kept either.
  }
}
