import { startPopupEarly } from '@/lib/popup/first-script';

/**
 * The popup's first script, a classic one at the top of popup.html (lib/popup/first-script.ts
 * says what it does).
 *
 * Parser-blocking on purpose: it is tiny, and a parser-blocking script is fetched first, while
 * the browser's preload scanner goes on fetching the modules.
 */
export default defineUnlistedScript(() => startPopupEarly({ document, location }));
