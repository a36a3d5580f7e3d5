import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, renderOpenApi } from '../../src/api/openapi.js';
import { ROUTES } from '../../src/api/routes.js';

describe('docs/openapi.json', () => {
  it('is generated from src/api and up to date (run `npm run openapi` when this fails)', () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(renderOpenApi());
  });

  it('has every route of the route table', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.values(doc.paths).flatMap((p) => Object.keys(p));
    expect(ops.length).toBe(Object.keys(ROUTES).length);
    expect(doc.paths['/invitations']).toHaveProperty('post');
    expect(doc.paths['/test-takers/{testTakerId}/scorecard']).toHaveProperty('get');
  });
});
