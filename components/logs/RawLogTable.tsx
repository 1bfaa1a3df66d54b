import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import type { LogRecord, RecordStore } from '@/lib/logs/record-store';

const ROW_HEIGHT = 24;
const VISIBLE_ROWS = 20;
const OVERSCAN = 6;
/**
 * Browsers cap an element's height (Chromium ~33 million px, Firefox ~17 million), and two
 * million rows of 24 px would pass it. Beyond this height the scroll position is mapped onto the
 * rows proportionally instead of one pixel per pixel.
 */
const MAX_SCROLL_HEIGHT = 8_000_000;

/** Which rows a scroll position shows: pure, so the mapping can be tested without layout. */
export function rowWindow(
  scrollTop: number,
  viewportHeight: number,
  count: number,
  rowHeight = ROW_HEIGHT,
): { first: number; firstTop: number; spacerHeight: number; visible: number } {
  const visible = Math.ceil(viewportHeight / rowHeight) + 1;
  const natural = count * rowHeight;
  const spacerHeight = Math.min(natural, MAX_SCROLL_HEIGHT);
  const maxScroll = Math.max(0, spacerHeight - viewportHeight);
  const lastFirst = Math.max(0, count - visible + 1);
  const fraction = maxScroll > 0 ? Math.min(1, Math.max(0, scrollTop) / maxScroll) : 0;
  if (natural <= MAX_SCROLL_HEIGHT) {
    const first = Math.min(Math.floor(Math.max(0, scrollTop) / rowHeight), Math.max(0, count - 1));
    return { first, firstTop: first * rowHeight, spacerHeight, visible };
  }
  // Scaled: row `first` is drawn at the top of the viewport, wherever that is.
  const first = Math.min(Math.round(fraction * lastFirst), lastFirst);
  return { first, firstTop: Math.min(Math.max(0, scrollTop), maxScroll), spacerHeight, visible };
}

// The view is an ARIA table of divs rather than <table>: only the rows in view exist, placed by
// a transform, and aria-rowcount/aria-rowindex tell assistive technology where they sit in the
// whole log. Rows and cells of a read-only table are not interactive (that is the grid role).
function TableRow({
  position,
  className,
  children,
}: {
  position: number;
  className: string;
  children: ComponentChildren;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a virtualised table needs positioned rows, see above
    // biome-ignore lint/a11y/useFocusableInteractive: a row of a read-only table takes no focus
    <div role="row" aria-rowindex={position} class={className}>
      {children}
    </div>
  );
}

function Cell({
  className,
  header,
  children,
}: {
  className: string;
  header?: boolean;
  children: ComponentChildren;
}) {
  return (
    <span role={header ? 'columnheader' : 'cell'} class={className}>
      {children}
    </span>
  );
}

function Row({ record, position }: { record: LogRecord; position: number }) {
  if (record.kind === 'unrecognised') {
    return (
      <TableRow position={position} className="raw-row raw-unrecognised">
        <Cell className="raw-time">—</Cell>
        <Cell className="raw-kind">{t('rawLog.notRecognised')}</Cell>
        <Cell className="raw-text">{record.text ?? t('rawLog.textNotKept')}</Cell>
      </TableRow>
    );
  }
  return (
    <TableRow position={position} className={`raw-row raw-${record.kind}`}>
      <Cell className="raw-time">{record.dateTime.slice(11)}</Cell>
      <Cell className="raw-kind">
        {record.kind === 'blocked' ? t('rawLog.blocked') : t('rawLog.allowed')}
      </Cell>
      <Cell className="raw-ip">{record.clientIp}</Cell>
      <Cell className="raw-domain">{record.domain}</Cell>
      <Cell className="raw-resolver">{record.resolver}</Cell>
    </TableRow>
  );
}

/**
 * The loaded raw log as a table that renders only the rows in view: 2 million lines cost the
 * same as 30. `rows` holds record numbers (the filtered selection) in log order.
 */
export function RawLogTable({
  store,
  rows,
  label,
}: {
  store: RecordStore;
  rows: Uint32Array;
  label: string;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef<number | null>(null);
  // The box's height is set here, not by CSS, so it need not be measured (and grows with a load).
  const viewportHeight = Math.min(Math.max(rows.length, 1), VISIBLE_ROWS) * ROW_HEIGHT;

  useLayoutEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const onScroll = () => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setScrollTop(boxRef.current?.scrollTop ?? 0);
    });
  };

  const { first, firstTop, spacerHeight, visible } = rowWindow(scrollTop, viewportHeight, rows.length);
  const start = Math.max(0, first - OVERSCAN);
  const end = Math.min(rows.length, first + visible + OVERSCAN);
  const rendered = [];
  for (let i = start; i < end; i++) {
    const record = store.record(rows[i] as number);
    if (record) rendered.push(<Row key={record.index} record={record} position={i + 2} />);
  }
  // The rendered rows sit in one block, moved so that row `first` lands at `firstTop`.
  const blockTop = firstTop - (first - start) * ROW_HEIGHT;

  return (
    // biome-ignore lint/a11y/useSemanticElements: virtualised table, see TableRow
    <div role="table" aria-label={label} aria-rowcount={rows.length + 1} class="raw-table">
      {/* biome-ignore lint/a11y/useSemanticElements: virtualised table, see TableRow */}
      <div role="rowgroup" class="raw-head">
        <TableRow position={1} className="raw-row">
          <Cell header className="raw-time">
            {t('rawLog.time')}
          </Cell>
          <Cell header className="raw-kind">
            {t('rawLog.result')}
          </Cell>
          <Cell header className="raw-ip">
            {t('rawLog.clientIp')}
          </Cell>
          <Cell header className="raw-domain">
            {t('rawLog.domain')}
          </Cell>
          <Cell header className="raw-resolver">
            {t('rawLog.resolver')}
          </Cell>
        </TableRow>
      </div>
      {/* The scroll box is the body's rowgroup itself: a focusable box between the table and its
          rows would be a child a table may not have (axe: aria-required-children). */}
      {/* biome-ignore lint/a11y/useSemanticElements: virtualised table, see TableRow */}
      <div
        ref={boxRef}
        role="rowgroup"
        class="raw-scroll"
        // A scrollable box a keyboard user can reach and scroll with the arrow keys.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll box must be focusable to scroll by keyboard
        tabIndex={0}
        style={{ height: `${viewportHeight}px` }}
        onScroll={onScroll}
      >
        <div class="raw-spacer" style={{ height: `${spacerHeight}px` }}>
          <div class="raw-block" style={{ transform: `translateY(${blockTop}px)` }}>
            {rendered}
          </div>
        </div>
      </div>
    </div>
  );
}
