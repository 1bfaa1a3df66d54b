// Applies the theme chosen on the options page before the first paint: a classic script in
// <head> runs before the page is shown, which a module script cannot promise. It reads the copy
// that lib/settings/theme.ts keeps in localStorage (key "theme"); storage.local stays the truth.
(() => {
  try {
    const theme = localStorage.getItem('theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
  } catch {
    // No localStorage (disabled by policy): the page follows the system until storage answers.
  }
})();
