import { Title } from '@mantine/core';
import type { ReactNode, Ref } from 'react';

/** A step's heading. The page moves the focus to it when the wizard moves on, so that a screen reader reads the new step. */
export function StepHeading({ ref, children }: { ref: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <Title order={2} size="h4" ref={ref} tabIndex={-1}>
      {children}
    </Title>
  );
}
