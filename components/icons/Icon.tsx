/**
 * The extension's one icon set, drawn inline so the icons take the text colour (light and dark
 * alike), cost no request and scale with the text. Decorative (`aria-hidden`): the words beside
 * an icon, or the name of its button, carry the meaning.
 *
 * Each icon is data: line drawings on a 24-unit grid (stroked with the current colour), or filled
 * shapes with their own colours (the product mark, the same drawing as public/icon/icon.svg).
 * Every drawing is its own export, and so is its ready-made component: a page's bundle holds only
 * the icons that page draws (the popup's size budget counts every byte).
 */
import type { FunctionComponent } from 'preact';

interface Shape {
  d: string;
  /** Filled shapes name their colour; line drawings leave it out and use the text colour. */
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
}

export interface Drawing {
  viewBox?: string;
  shapes: readonly Shape[];
  /** A top-to-bottom gradient that `fill: url(#id)` refers to. */
  gradient?: { id: string; from: string; to: string };
}

const line = (...paths: string[]): Drawing => ({ shapes: paths.map((d) => ({ d })) });

/** The circle most icons are drawn in (r 9.5 around the centre). */
const RING = 'M12 2.5a9.5 9.5 0 1 0 0 19 9.5 9.5 0 0 0 0-19Z';

/** Blocked: a circle struck through. */
export const blockedDrawing = /* @__PURE__ */ line(RING, 'm5.3 5.3 13.4 13.4');
/** Allowed (and done): a circle with a check. */
export const allowedDrawing = /* @__PURE__ */ line(RING, 'm7.5 12.5 3 3 6-6.5');
/** Not blocked: an open circle with an arrow passing through it (no rule stops it). */
export const notBlockedDrawing = /* @__PURE__ */ line(RING, 'M7 12h10m-3.5-3.5L17 12l-3.5 3.5');
/** Not known yet, or not knowable here: a circle with a question mark. */
export const unknownDrawing = /* @__PURE__ */ line(
  RING,
  'M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6',
  'M12 17h.01',
);
/** Something to look at (a failure, a question before something irreversible): a triangle with "!". */
export const warningDrawing = /* @__PURE__ */ line(
  'M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  'M12 9v4M12 17h.01',
);
/** Waiting to be sent: a clock. */
export const clockDrawing = /* @__PURE__ */ line(RING, 'M12 7v5l3 2');
export const settingsDrawing = /* @__PURE__ */ line(
  'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z',
  'M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
);
/** The navigation's menu button (narrow windows). */
export const menuDrawing = /* @__PURE__ */ line('M3 6h18M3 12h18M3 18h18');
/** The product: a shield holding a funnel, as the toolbar icon (public/icon/icon.svg) draws it. */
export const productDrawing: Drawing = {
  viewBox: '0 0 128 128',
  gradient: { id: 'product-shield', from: '#2f7cf6', to: '#1746a8' },
  shapes: [
    {
      d: 'M64 6 L116 22 V58 C116 92 94 114 64 124 C34 114 12 92 12 58 V22 Z',
      fill: 'url(#product-shield)',
      stroke: '#0f2f73',
      strokeWidth: 4,
    },
    { d: 'M30 36 H98 L72 68 V96 L56 106 V68 Z', fill: '#ffffff', stroke: '#ffffff', strokeWidth: 4 },
  ],
};

interface IconProps {
  drawing: Drawing;
  class?: string;
}

export function Icon({ drawing, class: className }: IconProps) {
  const { gradient } = drawing;
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
      aria-hidden="true"
    >
      {gradient && (
        <defs>
          <linearGradient id={gradient.id} x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stop-color={gradient.from} />
            <stop offset="1" stop-color={gradient.to} />
          </linearGradient>
        </defs>
      )}
      {drawing.shapes.map((shape) =>
        shape.fill ? (
          <path
            key={shape.d}
            d={shape.d}
            fill={shape.fill}
            stroke={shape.stroke ?? 'none'}
            stroke-width={shape.strokeWidth}
          />
        ) : (
          <path key={shape.d} d={shape.d} />
        ),
      )}
    </svg>
  );
}

/** A decorative icon component of one drawing (for tables of components, and short markup). */
function iconOf(drawing: Drawing): FunctionComponent<{ class?: string }> {
  return ({ class: className }) => <Icon drawing={drawing} class={className} />;
}

export const BlockedIcon = /* @__PURE__ */ iconOf(blockedDrawing);
export const AllowedIcon = /* @__PURE__ */ iconOf(allowedDrawing);
export const NotBlockedIcon = /* @__PURE__ */ iconOf(notBlockedDrawing);
export const UnknownIcon = /* @__PURE__ */ iconOf(unknownDrawing);
export const WarningIcon = /* @__PURE__ */ iconOf(warningDrawing);
export const ClockIcon = /* @__PURE__ */ iconOf(clockDrawing);
export const SettingsIcon = /* @__PURE__ */ iconOf(settingsDrawing);
export const MenuIcon = /* @__PURE__ */ iconOf(menuDrawing);
export const ProductIcon = /* @__PURE__ */ iconOf(productDrawing);
