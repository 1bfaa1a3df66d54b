import { render } from 'preact';

render(<main>DNS Filter Companion</main>, document.getElementById('app') as HTMLElement);
