/**
 * `jobfit profiles get`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { JobfitError } from '../../../src/core/errors.js';
import * as profilesGet from '../../../src/commands/profiles/get.js';
import { stubForTests } from '../stub-env.js';

const ctxFor = stubForTests(() => {});

describe('reads', () => {
  it('profiles get of an unknown id says so in one sentence', async () => {
    const f = ctxFor();
    const err = await profilesGet.default.run({ id: 'nope' }, f.ctx).catch((e) => e);
    expect(err).toBeInstanceOf(JobfitError);
    expect(err.message).toBe('No career navigation profile with id nope.');
    await f.ctx.close();
  });

});
