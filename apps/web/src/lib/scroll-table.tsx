import { Group, Table, Text } from '@mantine/core';
import { IconArrowsHorizontal } from '@tabler/icons-react';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import classes from './scroll-table.module.css';

interface HiddenSides {
  start: boolean;
  end: boolean;
}

/**
 * A table that keeps its columns readable on a phone by scrolling sideways, and says so: a region
 * named `label` (a screen reader announces it; a keyboard reaches it with Tab and scrolls it with
 * the arrow keys), a shadow on each side where columns are hidden, and a hint above while anything
 * is. Below `minWidth` pixels the table scrolls instead of squeezing its cells.
 *
 * `stacked`: on a phone the table does not scroll at all; each row becomes a block whose cells wrap
 * under each other, every cell led by its column's name (its `data-label`), so a row's action (a
 * menu, a copy button, a status) is on screen rather than past the edge. Screen readers still get
 * the table, its header and its rows (decision 0056).
 */
export function ScrollTable({
  label,
  minWidth,
  stacked = false,
  children,
}: {
  label: string;
  minWidth: number;
  stacked?: boolean;
  children: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [hidden, setHidden] = useState<HiddenSides>({ start: false, end: false });

  const measure = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    // A pixel of slack: zoomed pages report fractional widths. Right to left, scrollLeft runs from
    // 0 at the start to negative values towards the end.
    const scrolled = Math.abs(element.scrollLeft);
    const start = scrolled > 1;
    const end = scrolled + element.clientWidth < element.scrollWidth - 1;
    setHidden((before) => (before.start === start && before.end === end ? before : { start, end }));
  }, []);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    measure();
    // The table's width changes with its rows and the window's with a phone turned sideways.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);

  const scrolls = hidden.start || hidden.end;
  return (
    <div>
      {scrolls && (
        <Group id={hintId} gap={6} mb={6} c="dimmed" wrap="nowrap">
          <IconArrowsHorizontal size={16} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="xs">
            <FormattedMessage id="scrollTable.hint" defaultMessage="Scroll sideways to see every column." />
          </Text>
        </Group>
      )}
      <div className={classes.frame}>
        <Table.ScrollContainer
          ref={scroller}
          type="native"
          minWidth={minWidth}
          role="region"
          aria-label={label}
          aria-describedby={scrolls ? hintId : undefined}
          // A tab stop only when there is something to scroll to.
          tabIndex={scrolls ? 0 : undefined}
          className={stacked ? `${classes.scroller} ${classes.stacked}` : classes.scroller}
          onScroll={measure}
        >
          {children}
        </Table.ScrollContainer>
        <div className={classes.shadow} data-side="start" data-visible={hidden.start || undefined} aria-hidden />
        <div className={classes.shadow} data-side="end" data-visible={hidden.end || undefined} aria-hidden />
      </div>
    </div>
  );
}
