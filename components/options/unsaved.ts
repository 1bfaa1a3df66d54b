import { createContext } from 'preact';
import { useContext, useEffect } from 'preact/hooks';

/** Which settings sections hold changes not saved yet (the page's one save model, docs/architecture.md). */
export interface UnsavedChanges {
  set(section: string, unsaved: boolean): void;
}

export const UnsavedChangesContext = createContext<UnsavedChanges | null>(null);

/** Tells the page that `section` has (or no longer has) unsaved changes; nothing outside the page shell. */
export function useUnsavedChanges(section: string, unsaved: boolean): void {
  const registry = useContext(UnsavedChangesContext);
  useEffect(() => {
    registry?.set(section, unsaved);
    return () => registry?.set(section, false);
  }, [registry, section, unsaved]);
}
