/**
 * The extension's icons, drawn inline so they take the text colour (light and dark alike), cost
 * no request and scale with the text. Decorative by default (`aria-hidden`): the words beside an
 * icon carry the meaning. Give `label` only where the icon stands alone; it then becomes an image
 * with that name.
 *
 * Each icon is data: line drawings on a 24-unit grid (stroked with the current colour), or filled
 * shapes with their own colours (the product mark, the same drawing as public/icon/icon.svg).
 */

interface Shape {
  d: string;
  /** Filled shapes name their colour; line drawings leave it out and use the text colour. */
  fill?: string;
}

interface Drawing {
  viewBox?: string;
  shapes: Shape[];
}

const line = (...paths: string[]): Drawing => ({ shapes: paths.map((d) => ({ d })) });

const ICONS = {
  /** Blocked: a shield with a bar across. */
  blocked: line('M12 2.5 20 5.5v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6Z', 'M8.5 12h7'),
  /** Allowed: a check mark in a circle. */
  allowed: line('M12 2.5a9.5 9.5 0 1 0 0 19 9.5 9.5 0 0 0 0-19Z', 'm7.8 12.3 2.8 2.8 5.6-5.8'),
  /** Not blocked (on no list): an open circle. */
  unlisted: line('M12 3.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Z'),
  /** A plain shield (protection, filtering). */
  shield: line('M12 2.5 20 5.5v6c0 5-3.4 8.6-8 10-4.6-1.4-8-5-8-10v-6Z'),
  settings: line(
    'M19.23 9.65 21.77 9.86v4.28l-2.54.21-.46 1.1 1.65 1.94-3.03 3.03-1.94-1.65-1.1.46-.21 2.54H9.86l-.21-2.54-1.1-.46-1.94 1.65-3.03-3.03 1.65-1.94-.46-1.1-2.54-.21V9.86l2.54-.21.46-1.1-1.65-1.94 3.03-3.03 1.94 1.65 1.1-.46.21-2.54h4.28l.21 2.54 1.1.46 1.94-1.65 3.03 3.03-1.65 1.94Z',
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z',
  ),
  menu: line('M4 6h16', 'M4 12h16', 'M4 18h16'),
  undo: line('M9 14 4 9l5-5', 'M4 9h10.5a5.5 5.5 0 0 1 0 11H11'),
  external: line('M14 4h6v6', 'M20 4 11 13', 'M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5'),
  warning: line('M12 3 2.5 20h19Z', 'M12 10v4.5', 'M12 17.3v.2'),
  info: line('M12 2.5a9.5 9.5 0 1 0 0 19 9.5 9.5 0 0 0 0-19Z', 'M12 11v5.5', 'M12 7.7v.2'),
  /** For a while: a clock. */
  clock: line('M12 2.5a9.5 9.5 0 1 0 0 19 9.5 9.5 0 0 0 0-19Z', 'M12 7v5l3.5 2'),
  close: line('M6 6l12 12', 'M18 6 6 18'),
  /** The product: a shield holding a funnel, as in the toolbar icon. */
  brand: {
    viewBox: '0 0 128 128',
    shapes: [
      { d: 'M64 6 116 22v36c0 34-22 56-52 66-30-10-52-32-52-66V22Z', fill: '#1d4ed8' },
      { d: 'M30 36h68L72 68v28l-16 10V68Z', fill: '#ffffff' },
    ],
  },
} satisfies Record<string, Drawing>;

export type IconName = keyof typeof ICONS;

export function Icon({ name, label, class: className }: { name: IconName; label?: string; class?: string }) {
  const drawing: Drawing = ICONS[name];
  return (
    <svg
      class={className ? `icon ${className}` : 'icon'}
      viewBox={drawing.viewBox ?? '0 0 24 24'}
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      focusable="false"
      aria-hidden={label === undefined ? 'true' : undefined}
      role={label === undefined ? undefined : 'img'}
      aria-label={label}
    >
      {drawing.shapes.map((shape) =>
        shape.fill ? (
          <path key={shape.d} d={shape.d} fill={shape.fill} stroke="none" />
        ) : (
          <path key={shape.d} d={shape.d} />
        ),
      )}
    </svg>
  );
}
