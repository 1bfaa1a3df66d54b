/**
 * The popup's icons, inline SVG in the text colour (currentColor). Decorative: the word or the
 * button's name next to each says what it means, so each is hidden from assistive technology.
 */
import type { ComponentChildren } from 'preact';

function Svg({ children, class: className }: { children: ComponentChildren; class?: string }) {
  return (
    <svg
      class={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** The product (the toolbar icon's drawing, scripts/icon.svg): a shield holding a funnel. */
export function ProductIcon({ class: className }: { class?: string }) {
  return (
    <svg class={className} viewBox="0 0 128 128" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="product-shield" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#2f7cf6" />
          <stop offset="1" stop-color="#1746a8" />
        </linearGradient>
      </defs>
      <path
        d="M64 6 L116 22 V58 C116 92 94 114 64 124 C34 114 12 92 12 58 V22 Z"
        fill="url(#product-shield)"
        stroke="#0f2f73"
        stroke-width="4"
        stroke-linejoin="round"
      />
      <path
        d="M30 36 H98 L72 68 V96 L56 106 V68 Z"
        fill="#ffffff"
        stroke="#ffffff"
        stroke-width="4"
        stroke-linejoin="round"
      />
    </svg>
  );
}

export function SettingsIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
    </Svg>
  );
}

/** Blocked: a circle struck through. */
export function BlockedIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9.5" />
      <path d="m5.3 5.3 13.4 13.4" />
    </Svg>
  );
}

/** Allowed: a circle with a check. */
export function AllowedIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9.5" />
      <path d="m7.5 12.5 3 3 6-6.5" />
    </Svg>
  );
}

/** Not blocked: an open circle with an arrow passing through it (no rule stops it). */
export function NotBlockedIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9.5" />
      <path d="M7 12h10m-3.5-3.5L17 12l-3.5 3.5" />
    </Svg>
  );
}

/** Not known yet, or not knowable here: a circle with a question mark. */
export function UnknownIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9.5" />
      <path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6" />
      <path d="M12 17h.01" />
    </Svg>
  );
}

/** Something to look at: a triangle with an exclamation mark. */
export function WarningIcon() {
  return (
    <Svg>
      <path d="M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
      <path d="M12 9v4M12 17h.01" />
    </Svg>
  );
}

/** Waiting to be sent: a clock. */
export function ClockIcon() {
  return (
    <Svg>
      <circle cx="12" cy="12" r="9.5" />
      <path d="M12 7v5l3 2" />
    </Svg>
  );
}
