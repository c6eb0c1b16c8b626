import { describe, expect, it } from 'vitest';
import { attendeeAnswers } from './question-answers';
import { shownQuestions, type QuestionRow } from './questions';

const question = (row: Partial<QuestionRow> & Pick<QuestionRow, 'id' | 'kind'>): QuestionRow => ({
  position: 0,
  label: row.id,
  help: '',
  required: false,
  options: [],
  ticketTypeIds: [],
  showIf: null,
  onScanner: false,
  ...row,
});

const questions = [
  question({ id: 'diet', kind: 'choice', options: ['None', 'Vegan', 'Other'], required: true }),
  question({ id: 'allergy', kind: 'text', required: true, showIf: { questionId: 'diet', values: ['Other'] } }),
  question({ id: 'talks', kind: 'choices', options: ['A', 'B', 'C'] }),
  question({ id: 'terms', kind: 'checkbox', required: true }),
  question({ id: 'phone', kind: 'phone' }),
  question({ id: 'country', kind: 'country' }),
  question({ id: 'born', kind: 'date' }),
  question({ id: 'mail', kind: 'email' }),
  question({ id: 'age', kind: 'number' }),
  question({ id: 'laptop', kind: 'choice', options: ['Mac', 'PC'], required: true, ticketTypeIds: ['workshop'] }),
];

const issuesOf = (ticketTypeId: string, answers: Record<string, unknown>) => {
  const parsed = attendeeAnswers(questions, ticketTypeId).safeParse(answers);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the answers schema built from an event’s questions', () => {
  it('asks a conditional question only when the earlier answer has one of its values', () => {
    expect(shownQuestions(questions, 'standing', { diet: 'Vegan' }).map((one) => one.id)).not.toContain('allergy');
    expect(shownQuestions(questions, 'standing', { diet: 'Other' }).map((one) => one.id)).toContain('allergy');
    expect(issuesOf('standing', { diet: 'Vegan', terms: true })).toEqual([]);
    expect(issuesOf('standing', { diet: 'Other', terms: true })).toEqual(['allergy: Answer this question']);
  });

  it('asks a question of some ticket types only of their tickets', () => {
    expect(issuesOf('standing', { diet: 'None', terms: true })).toEqual([]);
    expect(issuesOf('workshop', { diet: 'None', terms: true })).toEqual(['laptop: Answer this question']);
  });

  it('requires a required checkbox checked, and reads empty answers (spaces too) as none', () => {
    expect(issuesOf('standing', { diet: 'None', terms: false, talks: [], phone: '  ', age: null })).toEqual([
      'terms: Check this box to go on',
    ]);
  });

  it('names every wrong answer at once, a missing one beside one of the wrong kind', () => {
    expect(issuesOf('standing', { diet: 'None', age: 'ten' }).map((issue) => issue.split(':')[0])).toEqual(['terms', 'age']);
  });

  it('refuses answers not of their kind, and keeps the shown questions’ answers only, cleaned', () => {
    expect(
      issuesOf('standing', {
        diet: 'Paleo',
        terms: 'yes',
        talks: ['D'],
        phone: '12',
        country: 'XX',
        born: '2030-02-30',
        mail: 'nobody',
        age: 'ten',
      }).map((issue) => issue.split(':')[0]),
    ).toEqual(['diet', 'talks.0', 'terms', 'phone', 'country', 'born', 'mail', 'age']);
    const parsed = attendeeAnswers(questions, 'standing').parse({
      diet: 'Vegan',
      allergy: 'Nuts',
      talks: ['C', 'A'],
      terms: true,
      phone: '+49 30 901820',
      country: 'DE',
      laptop: 'Mac',
      extra: 'dropped',
    });
    expect(parsed).toEqual({ diet: 'Vegan', talks: ['A', 'C'], terms: true, phone: '+4930901820', country: 'DE' });
  });
});
