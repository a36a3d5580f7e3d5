/**
 * A route that does not answer JSON: the test declares one the way the route
 * table does (a PDF download), serves it from the fault server (a fault that
 * answers every request), and the client sends the route's accept type and
 * returns the bytes as received, not text; its errors are still the API's JSON.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../src/api/routes.js';
import { JobfitClient } from '../../src/client/client.js';
import { BadRequestError, ProtocolError } from '../../src/client/errors.js';
import { HttpClient } from '../../src/client/http.js';
import { type FaultServer, send, startFaultServer } from '../helpers/fault-server.js';

const KEY = 'sk_live_binaryroute1234a1b2c3d4';

/** A route as the table would declare it: no response schema, a content type that is not JSON. */
const JOB_FIT_PDF = {
  method: 'GET',
  path: '/test-takers/:testTakerId/job-fit-report.pdf',
  summary: 'Job fit report as a PDF',
  auth: true,
  params: { testTakerId: 'integer' },
  kind: 'item',
  contentType: 'application/pdf',
  status: 200,
  testKey: 'fake',
} as const satisfies RouteDef;

/** Bytes that are not UTF-8 (0xff, 0xfe, a NUL, a lone continuation byte): decoding them as text would change them. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a]), Buffer.from('%%EOF\n')]);

const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
let server: FaultServer;
let baseUrl: string;

beforeAll(async () => {
  server = await startFaultServer({ anyKey: true });
  server.faults.push((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    if (req.url === '/v2/test-takers/7/job-fit-report.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': PDF.length });
      res.end(PDF);
      return true;
    }
    if (req.url === '/v2/test-takers/8/job-fit-report.pdf') return send(res, 400, { error: 'Job fit report not ready' });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><title>Login</title></html>');
    return true;
  });
  baseUrl = `${server.url}/v2`;
});
afterAll(async () => {
  await server.close();
});

async function withClient<T>(fn: (c: JobfitClient) => Promise<T>): Promise<T> {
  const client = new JobfitClient(new HttpClient({ baseUrl, apiKey: KEY, env: {}, retry: { maxRetries: 0 } }), { verbose: true });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('JobfitClient.callRoute on a route that answers bytes', () => {
  it('sends the route’s accept type and returns the body’s bytes as received', async () => {
    const pdf: Uint8Array = await withClient((c) => c.callRoute(JOB_FIT_PDF, { params: { testTakerId: 7 } }));
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(pdf).equals(PDF)).toBe(true);
    const req = seen.find((s) => s.url === '/v2/test-takers/7/job-fit-report.pdf');
    expect(req?.headers.accept).toBe('application/pdf');
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('an error answer is still the API’s JSON error', async () => {
    const err = await withClient((c) => c.callRoute(JOB_FIT_PDF, { params: { testTakerId: 8 } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toContain('Job fit report not ready');
  });

  it('a 2xx answer of another content type is one sentence, not bytes', async () => {
    const err = await withClient((c) => c.callRoute(JOB_FIT_PDF, { params: { testTakerId: 9 } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as Error).message).toBe('The service answered GET /test-takers/9/job-fit-report.pdf with text/html instead of application/pdf (HTTP 200).');
  });
});
