import { simpleList } from '../shared/simple-list.js';

export const { run, register } = simpleList({
  name: 'score-profiles',
  description: 'List the score profiles enabled for the account (GET /score-profiles); SHORT NAME is the --sp of `scorecard`',
  noun: 'score profiles',
  columns: [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'short_name', header: 'SHORT NAME' },
    { key: 'display_name', header: 'NAME' },
    { key: 'riasec_profile', header: 'RIASEC' },
  ],
  fetch: (c) => c.listScoreProfiles(),
  examples: ['jobfit score-profiles', 'jobfit score-profiles -o json | jq -r ".data[].short_name"'],
});
