import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Accessible name of the list. */
  label: string;
  /** Every row has this height in CSS pixels; rows are clipped to it. */
  rowHeight: number;
  /** Height of the scroll box, in rows, once the list is longer than that. */
  visibleRows?: number;
  /** Rows rendered beyond each edge, so fast scrolling and Tab within the list rarely meet a gap. */
  overscan?: number;
  itemKey: (item: T, index: number) => string;
  renderItem: (item: T, index: number) => ComponentChildren;
  class?: string;
}

/** Which rows to render for a scroll position: pure so it can be tested without layout. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan: number,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(viewportHeight / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + shown + overscan);
  return { start: Math.min(start, end), end };
}

/**
 * A list that renders only the rows in view, so 10,000 entries cost as much as 30. Rows have a
 * fixed height; the list keeps its full length for scroll bars and tells assistive technology
 * each row's position in the whole list (aria-setsize / aria-posinset). The scroll box is a plain
 * scrollable element, which browsers make keyboard-focusable and scroll with the arrow keys.
 */
export function VirtualList<T>({
  items,
  label,
  rowHeight,
  visibleRows = 12,
  overscan = 8,
  itemKey,
  renderItem,
  class: className,
}: VirtualListProps<T>) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef<number | null>(null);
  const boxHeight = Math.min(items.length, visibleRows) * rowHeight;
  const [viewportHeight, setViewportHeight] = useState(boxHeight);

  useLayoutEffect(() => {
    // A measured height wins over the computed one (CSS may change it); no layout means no measure.
    const measured = boxRef.current?.clientHeight ?? 0;
    setViewportHeight(measured > 0 ? measured : boxHeight);
  }, [boxHeight]);

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

  const { start, end } = visibleRange(scrollTop, viewportHeight, rowHeight, items.length, overscan);
  const rows = [];
  for (let index = start; index < end; index++) {
    const item = items[index] as T;
    rows.push(
      <li
        key={itemKey(item, index)}
        class="vlist-row"
        data-index={index}
        aria-setsize={items.length}
        aria-posinset={index + 1}
        style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}
      >
        {renderItem(item, index)}
      </li>,
    );
  }

  return (
    <div
      ref={boxRef}
      class={`vlist${className ? ` ${className}` : ''}`}
      style={{ height: `${boxHeight}px` }}
      onScroll={onScroll}
    >
      <ul aria-label={label} class="vlist-inner" style={{ height: `${items.length * rowHeight}px` }}>
        {rows}
      </ul>
    </div>
  );
}
