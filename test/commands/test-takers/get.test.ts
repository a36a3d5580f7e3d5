/**
 * `jobfit test-takers get`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../../src/commands/kit/parse.js';
import { PeopleListOptions } from '../../../src/commands/shared/people-list.js';
import * as testTakersGet from '../../../src/commands/test-takers/get.js';
import * as testTakersList from '../../../src/commands/test-takers/list.js';
import { stubForTests } from '../stub-env.js';

const ctxFor = stubForTests(() => {});

describe('reads', () => {
  it('test-takers get shows assigned assessments', async () => {
    const f = ctxFor({ globals: { output: 'json' } });
    await testTakersList.default.run(parseOptions(PeopleListOptions, {}), f.ctx);
    const first = JSON.parse(f.stdout()).data[0];
    const g = ctxFor({ globals: { output: 'json' } });
    await testTakersGet.default.run({ id: first.id }, g.ctx);
    expect(JSON.parse(g.stdout())).toMatchObject({ object: 'test_taker', id: first.id });
    await f.ctx.close();
    await g.ctx.close();
  });

});
