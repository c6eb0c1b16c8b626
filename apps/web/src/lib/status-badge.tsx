import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A status in a list's column, in its colour: never cut short in a narrow column ("Has tick…"),
 * the whole status, wrapped if it must be.
 */
export function StatusBadge({ color, children }: { color: string; children: ReactNode }) {
  return (
    <Badge variant="light" color={color} h="auto" styles={{ label: { overflow: 'visible', whiteSpace: 'normal' } }}>
      {children}
    </Badge>
  );
}
