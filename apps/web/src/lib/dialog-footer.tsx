import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The end of a dialog: what went wrong (announced), then "keep it" and the action. Without
 * `onConfirm` the action submits the dialog's form.
 */
export function DialogFooter({
  error,
  cancel,
  confirm,
  pending,
  onCancel,
  onConfirm,
  danger = false,
}: {
  error?: ReactNode;
  cancel: ReactNode;
  confirm: ReactNode;
  pending: boolean;
  onCancel: () => void;
  onConfirm?: () => void;
  danger?: boolean;
}) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {cancel}
        </Button>
        <Button type={onConfirm ? 'button' : 'submit'} color={danger ? 'red' : undefined} loading={pending} onClick={onConfirm}>
          {confirm}
        </Button>
      </Group>
    </>
  );
}
