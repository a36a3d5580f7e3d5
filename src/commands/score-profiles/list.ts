import { ScoreProfile } from '../../api/schemas/assessments.js';
import { simpleList } from '../shared/simple-list.js';

const command = simpleList({
  description: 'List the score profiles enabled for the account (GET /score-profiles); SHORT NAME is the --sp of `scorecard`',
  noun: 'score profiles',
  columns: [
    { key: 'id', header: 'ID', align: 'right' },
    { key: 'short_name', header: 'SHORT NAME' },
    { key: 'display_name', header: 'NAME', whole: true },
    { key: 'riasec_profile', header: 'RIASEC' },
  ],
  item: ScoreProfile,
  fetch: (c) => c.listScoreProfiles(),
  examples: ['jobfit score-profiles', 'jobfit score-profiles -o json | jq -r ".data[].short_name"'],
});

export default command;
