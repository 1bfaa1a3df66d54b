/** A page's localStorage, kept across the "pages" (openings) of a test: the one shared fake. */
export function pageStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}
