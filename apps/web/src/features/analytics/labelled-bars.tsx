import classes from './labelled-bars.module.css';

/**
 * Horizontal bars with their names beside them, not inside them: a name inside a bar has no room
 * when the bar is short or empty (a ticket type nobody bought yet), and wrapped over the rows
 * around it. Like every chart here it is drawn for the eye; `ChartSection` hides it from screen
 * readers and gives them the same numbers as a table.
 */
export function LabelledBars({
  data,
  color,
  valueFormatter,
}: {
  data: { name: string; value: number }[];
  /** A Mantine colour and shade, as `teal.3`. */
  color: string;
  valueFormatter: (value: number) => string;
}) {
  const largest = Math.max(0, ...data.map((row) => row.value));
  const background = `var(--mantine-color-${color.replace('.', '-')})`;
  return (
    <ul className={classes.list}>
      {data.map((row, index) => (
        <li key={index} className={classes.row}>
          <span className={classes.name} title={row.name} dir="auto">
            {row.name}
          </span>
          <div className={classes.track}>
            <div
              className={classes.bar}
              data-empty={row.value === 0 || undefined}
              style={{ width: `${largest > 0 ? (row.value / largest) * 100 : 0}%`, background }}
            />
          </div>
          <span className={classes.value}>{valueFormatter(row.value)}</span>
        </li>
      ))}
    </ul>
  );
}
