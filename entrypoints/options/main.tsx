import { render } from 'preact';

render(
  <main>
    <h1>Settings</h1>
  </main>,
  document.getElementById('app') as HTMLElement,
);
