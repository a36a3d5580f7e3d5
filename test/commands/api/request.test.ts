/**
 * `jobfit api`: the run functions with a Context on memory streams, against
 * the real stub on a loopback port (moved from test/commands/run.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { BadRequestError } from '../../../src/client/errors.js';
import * as api from '../../../src/commands/api/request.js';
import * as invitationsList from '../../../src/commands/invitations/list.js';
import { ApiOptions } from '../../../src/commands/api/request.js';
import { parseOptions } from '../../../src/commands/kit/parse.js';
import { PeopleListOptions } from '../../../src/commands/shared/people-list.js';
import { stubForTests } from '../stub-env.js';

const ctxFor = stubForTests(() => {});

describe('option schemas', () => {
  it('api: method, path and query', () => {
    const o = parseOptions(ApiOptions, { method: 'get', path: 'teams', query: ['a=1', 'b=x=y'] }, ['method', 'path']);
    expect(o).toMatchObject({ method: 'GET', path: '/teams', query: [['a', '1'], ['b', 'x=y']] });
    expect(() => parseOptions(ApiOptions, { method: 'FETCH', path: '/teams' }, ['method', 'path'])).toThrow(/^METHOD: must be one of GET/);
    expect(() => parseOptions(ApiOptions, { method: 'GET', path: 'https://x/v2/teams' }, ['method', 'path'])).toThrow(/relative to the base URL/);
  });

});

describe('api', () => {
  it('prints the body as received, one line when piped', async () => {
    const f = ctxFor();
    await api.default.run(parseOptions(ApiOptions, { method: 'GET', path: '/teams' }, ['method', 'path']), f.ctx);
    expect(f.stdout().trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(f.stdout()).object).toBe('list');
    await f.ctx.close();
  });

  it('-o json indents into a pipe; other formats and --fields are refused before any request', async () => {
    const f = ctxFor({ globals: { output: 'json' } });
    await api.default.run(parseOptions(ApiOptions, { method: 'GET', path: '/teams' }, ['method', 'path']), f.ctx);
    expect(f.stdout().split('\n').length).toBeGreaterThan(3);
    expect(JSON.parse(f.stdout()).object).toBe('list');
    await f.ctx.close();
    for (const globals of [{ output: 'csv' as const }, { output: 'table' as const }, { fields: ['id'] }]) {
      const g = ctxFor({ globals });
      const err = await api.default.run(parseOptions(ApiOptions, { method: 'GET', path: '/teams' }, ['method', 'path']), g.ctx).catch((e) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(err.message).toMatch(globals.fields ? /--fields cannot choose/ : /^This command cannot print -o/);
      expect(g.ctx.connection).toBeUndefined();
      expect(g.stdout()).toBe('');
      await g.ctx.close();
    }
  });

  it('a 400 prints the body, then fails with the API message', async () => {
    const f = ctxFor();
    const err = await api.default.run(parseOptions(ApiOptions, { method: 'GET', path: '/invitations/999999' }, ['method', 'path']), f.ctx).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(/\(400 from GET \/invitations\/999999\)$/);
    expect(JSON.parse(f.stdout())).toHaveProperty('error');
    await f.ctx.close();
  });

  it('PUT with --data from stdin', async () => {
    const f = ctxFor({ globals: { output: 'json' } });
    await invitationsList.default.run(parseOptions(PeopleListOptions, {}), f.ctx);
    const id = JSON.parse(f.stdout()).data[0].id;
    const p = ctxFor({ stdin: '{"person_id":"P-42"}' });
    await api.default.run(parseOptions(ApiOptions, { method: 'PUT', path: `/invitations/${id}`, data: '@-' }, ['method', 'path']), p.ctx);
    expect(JSON.parse(p.stdout())).toMatchObject({ id, person_id: 'P-42' });
    await f.ctx.close();
    await p.ctx.close();
  });

  it('--data with GET and bad JSON are usage errors', async () => {
    const f = ctxFor();
    await expect(api.default.run(parseOptions(ApiOptions, { method: 'GET', path: '/teams', data: '{}' }, ['method', 'path']), f.ctx)).rejects.toThrow('--data cannot be sent with GET.');
    await expect(api.default.run(parseOptions(ApiOptions, { method: 'PUT', path: '/invitations/1', data: '{nope' }, ['method', 'path']), f.ctx)).rejects.toBeInstanceOf(UsageError);
  });

});
