/**
 * The short questionnaires of the participant's page. The stub's scores are
 * derived deterministically (scoring.ts), so answers are checked for
 * completeness but do not change results; the items are here so the page
 * feels like the real thing to someone clicking through it.
 */
import { TEST_ID } from '../catalog-content.js';

export interface Choice {
  value: string;
  label: string;
}

export interface Question {
  name: string;
  text: string;
  choices: Choice[];
}

export interface Questionnaire {
  testId: number;
  /** Alias for lifecycle.complete's `assessment`. */
  alias: 'prescreen' | 'personality' | 'thinking' | 'interests';
  intro: string;
  questions: Question[];
}

const agree: Choice[] = [
  { value: '1', label: 'Strongly disagree' },
  { value: '2', label: 'Disagree' },
  { value: '3', label: 'Neither agree nor disagree' },
  { value: '4', label: 'Agree' },
  { value: '5', label: 'Strongly agree' },
];

const enjoy: Choice[] = [
  { value: '1', label: 'Not at all' },
  { value: '2', label: 'A little' },
  { value: '3', label: 'Somewhat' },
  { value: '4', label: 'Quite a lot' },
  { value: '5', label: 'Very much' },
];

const yesNo: Choice[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

export const QUESTIONNAIRES: readonly Questionnaire[] = [
  {
    testId: TEST_ID.prescreen,
    alias: 'prescreen',
    intro: 'A few quick questions about the role.',
    questions: [
      { name: 'q1', text: 'Are you allowed to work in the country where this job is based?', choices: yesNo },
      { name: 'q2', text: 'Could you start within the next month?', choices: yesNo },
      { name: 'q3', text: 'Can you work the hours described in the job advert?', choices: yesNo },
    ],
  },
  {
    testId: TEST_ID.personality,
    alias: 'personality',
    intro: 'How well does each statement describe you? There are no right or wrong answers.',
    questions: [
      { name: 'q1', text: 'I make a plan and stick to it.', choices: agree },
      { name: 'q2', text: 'I enjoy meeting people I do not know yet.', choices: agree },
      { name: 'q3', text: 'I stay calm when things go wrong.', choices: agree },
      { name: 'q4', text: 'I like finding new ways of doing familiar tasks.', choices: agree },
      { name: 'q5', text: 'I go out of my way to help colleagues.', choices: agree },
    ],
  },
  {
    testId: TEST_ID.thinking,
    alias: 'thinking',
    intro: 'Choose the best answer to each question.',
    questions: [
      {
        name: 'q1',
        text: 'Which number comes next: 3, 6, 12, 24, …?',
        choices: [
          { value: 'a', label: '30' },
          { value: 'b', label: '36' },
          { value: 'c', label: '48' },
          { value: 'd', label: '42' },
        ],
      },
      {
        name: 'q2',
        text: 'A jacket costs 60 after a 25% discount. What did it cost before the discount?',
        choices: [
          { value: 'a', label: '75' },
          { value: 'b', label: '80' },
          { value: 'c', label: '85' },
          { value: 'd', label: '90' },
        ],
      },
      {
        name: 'q3',
        text: 'Every member of the choir can read music. Sam cannot read music. Which statement must be true?',
        choices: [
          { value: 'a', label: 'Sam is in the choir.' },
          { value: 'b', label: 'Sam is not in the choir.' },
          { value: 'c', label: 'Sam sings.' },
          { value: 'd', label: 'None of these.' },
        ],
      },
    ],
  },
  {
    testId: TEST_ID.interests,
    alias: 'interests',
    intro: 'How much would you enjoy each activity? Think about the activity, not about pay or training.',
    questions: [
      { name: 'q1', text: 'Repairing an engine or building furniture.', choices: enjoy },
      { name: 'q2', text: 'Finding out why an experiment gave a surprising result.', choices: enjoy },
      { name: 'q3', text: 'Designing a poster or writing a short story.', choices: enjoy },
      { name: 'q4', text: 'Teaching someone a new skill.', choices: enjoy },
      { name: 'q5', text: 'Persuading a customer to choose your product.', choices: enjoy },
      { name: 'q6', text: 'Keeping accounts tidy and accurate.', choices: enjoy },
    ],
  },
];

export function questionnaireOf(testId: number): Questionnaire | undefined {
  return QUESTIONNAIRES.find((q) => q.testId === testId);
}

/** Names of unanswered questions (or answers that are not one of the choices). */
export function missingAnswers(q: Questionnaire, answers: URLSearchParams): string[] {
  return q.questions.filter((item) => !item.choices.some((c) => c.value === answers.get(item.name))).map((item) => item.name);
}
