import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import type { QuestionRow } from '@admit/shared/questions';
import { ActionIcon, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { kindMessages } from './question-words';

type Direction = 'up' | 'down';

/**
 * One question in the event's list: what it asks and of whom, when it is shown, and what can be
 * done to it. On a phone its actions go under its words.
 */
export function QuestionItem({
  question,
  index,
  questions,
  types,
  onEdit,
  onMove,
  onDelete,
}: {
  question: QuestionRow;
  index: number;
  /** All the event's questions in order: a condition names one of them. */
  questions: readonly QuestionRow[];
  types: readonly ManagedTicketTypeRow[];
  onEdit: () => void;
  /** Settles once the server answered; rejects when it refused. */
  onMove: (direction: Direction) => Promise<unknown>;
  onDelete: () => void;
}) {
  const intl = useIntl();
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const movedBy = useRef<Direction | null>(null);
  const { label } = question;

  useEffect(() => {
    // Once the list shows the row in its new place, the button pressed gets the focus back: React
    // may have moved the row's elements (which drops focus), and the button is disabled at an end.
    const direction = movedBy.current;
    if (!direction) return;
    movedBy.current = null;
    const pressed = direction === 'up' ? up.current : down.current;
    const other = direction === 'up' ? down.current : up.current;
    (pressed && !pressed.disabled ? pressed : other)?.focus();
  }, [index]);

  const move = (direction: Direction) => {
    movedBy.current = direction;
    onMove(direction).catch(() => {
      // Refused: the row stays where it is, and so does the focus.
      movedBy.current = null;
    });
  };

  return (
    <Card component="li" withBorder padding="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ flex: '1 1 20rem', minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" align="baseline">
            {/* The list already tells a screen reader each item's place. */}
            <Text c="dimmed" fw={600} aria-hidden>
              {intl.formatNumber(index + 1)}
            </Text>
            <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
              {label}
            </Title>
          </Group>
          {question.help && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {question.help}
            </Text>
          )}
          <Group gap={6}>
            <Badge variant="light" color="gray">
              <FormattedMessage {...kindMessages[question.kind]} />
            </Badge>
            {question.required ? (
              <Badge variant="light">
                <FormattedMessage id="questions.required" defaultMessage="Required" />
              </Badge>
            ) : (
              <Badge variant="outline" color="gray">
                <FormattedMessage id="questions.optional" defaultMessage="Optional" />
              </Badge>
            )}
            {question.onScanner && (
              <Badge variant="light" color="teal">
                <FormattedMessage id="questions.onScanner" defaultMessage="Shown on the scanner" />
              </Badge>
            )}
          </Group>
          <QuestionDetails question={question} questions={questions} types={types} />
        </Stack>
        <Group gap={4} wrap="wrap">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={onEdit}
            // The visible word first, as a voice command says it.
            aria-label={intl.formatMessage({ id: 'questions.editOf', defaultMessage: 'Edit “{label}”' }, { label })}
          >
            <FormattedMessage id="questions.edit" defaultMessage="Edit" />
          </Button>
          <ActionIcon
            ref={up}
            variant="subtle"
            color="gray"
            disabled={index === 0}
            onClick={() => move('up')}
            aria-label={intl.formatMessage({ id: 'questions.moveUp', defaultMessage: 'Move “{label}” up' }, { label })}
          >
            <IconArrowUp size={18} aria-hidden />
          </ActionIcon>
          <ActionIcon
            ref={down}
            variant="subtle"
            color="gray"
            disabled={index === questions.length - 1}
            onClick={() => move('down')}
            aria-label={intl.formatMessage({ id: 'questions.moveDown', defaultMessage: 'Move “{label}” down' }, { label })}
          >
            <IconArrowDown size={18} aria-hidden />
          </ActionIcon>
          <Button
            variant="subtle"
            color="red"
            size="compact-sm"
            onClick={onDelete}
            aria-label={intl.formatMessage({ id: 'questions.deleteOf', defaultMessage: 'Delete “{label}”' }, { label })}
          >
            <FormattedMessage id="questions.delete" defaultMessage="Delete" />
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/** For which ticket types, when it is shown and, for a choice, its options: each a sentence of its own. */
function QuestionDetails({
  question,
  questions,
  types,
}: {
  question: QuestionRow;
  questions: readonly QuestionRow[];
  types: readonly ManagedTicketTypeRow[];
}) {
  const intl = useIntl();
  const typeNames = question.ticketTypeIds.map((id) => types.find((type) => type.id === id)?.name ?? '—');
  const condition = question.showIf;
  const source = condition && questions.find((other) => other.id === condition.questionId);
  return (
    <Stack gap={2}>
      <Text size="sm">
        {typeNames.length === 0 ? (
          <FormattedMessage id="questions.allTypes" defaultMessage="All ticket types" />
        ) : (
          <FormattedMessage
            id="questions.forTypes"
            defaultMessage="For {types}"
            values={{ types: intl.formatList(typeNames, { type: 'conjunction' }) }}
          />
        )}
      </Text>
      {condition && (
        <Text size="sm">
          {source ? (
            <FormattedMessage
              id="questions.condition"
              defaultMessage="Only when “{question}” is {values}"
              values={{ question: source.label, values: intl.formatList(condition.values, { type: 'disjunction' }) }}
            />
          ) : (
            <FormattedMessage id="questions.conditionGone" defaultMessage="Only for some answers to an earlier question" />
          )}
        </Text>
      )}
      {question.options.length > 0 && (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          <FormattedMessage
            id="questions.options"
            defaultMessage="Options: {options}"
            values={{ options: intl.formatList(question.options, { type: 'unit', style: 'short' }) }}
          />
        </Text>
      )}
    </Stack>
  );
}
