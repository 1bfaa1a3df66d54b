// Applies the theme chosen on the options page before the first paint: loaded with
// `defer blocking="render"`, it runs before the page is shown (where the browser honours
// blocking="render"; a deferred script otherwise) without holding up the parser. It reads the
// copy that lib/settings/theme.ts keeps in localStorage (key "theme"); storage.local stays the truth.
(() => {
  try {
    const theme = localStorage.getItem('theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
  } catch {
    // No localStorage (disabled by policy): the page follows the system until storage answers.
  }
})();
