/**
 * A request's body read within bounds (receiver.ts says why): at most `limit`
 * bytes, bodies in flight sharing one budget, `Expect: 100-continue` answered
 * only when the body is wanted.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export const DEFAULT_MAX_DELIVERY_BYTES = 1024 * 1024;

/** Bytes of request bodies read at the same time; past it a delivery gets 503 and is retried by its sender. */
export const IN_FLIGHT_BODY_BYTES = 16 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export class Busy extends Error {}

/** Bytes of bodies being read now, shared by every request of one receiver. */
export interface Budget {
  used: number;
  readonly max: number;
}

/** The Content-Length a request declares, or undefined (chunked: none; node has refused a malformed one). */
function declaredLength(headers: IncomingHttpHeaders): number | undefined {
  const n = Number(headers['content-length'] ?? NaN);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Where a body's bytes go as they arrive. With a Content-Length (within the
 * cap), one Buffer of that size, counted in the budget at once (it is
 * allocated at once) and filled chunk by chunk: each chunk node hands over is
 * garbage as soon as it is copied, and nothing is joined at the end. Without
 * one (chunked), the chunks are kept, counted as they come, and joined once.
 */
class BodySink {
  private readonly chunks: Buffer[] = [];
  private body: Buffer | undefined;
  /** Bytes received. */
  size = 0;
  /** Bytes this body holds of the budget. */
  private counted = 0;

  constructor(
    declared: number | undefined,
    private readonly budget: Budget,
  ) {
    if (declared !== undefined) {
      this.body = Buffer.allocUnsafe(declared);
      this.count(declared);
    }
  }

  private count(n: number): void {
    this.counted += n;
    this.budget.used += n;
  }

  /** Takes a chunk; false when it goes past the declared length (the body is not what its header says). */
  add(c: Buffer): boolean {
    if (this.body) {
      if (this.size + c.length > this.body.length) return false;
      c.copy(this.body, this.size);
    } else {
      this.count(c.length);
      this.chunks.push(c);
    }
    this.size += c.length;
    return true;
  }

  /** The body in full; undefined when fewer bytes came than declared. */
  whole(): Buffer | undefined {
    if (this.body) return this.size === this.body.length ? this.body : undefined;
    return Buffer.concat(this.chunks, this.size);
  }

  /** Lets go of the bytes and gives back their part of the budget. */
  release(): void {
    this.budget.used -= this.counted;
    this.counted = 0;
    this.chunks.length = 0;
    this.body = undefined;
  }
}

/**
 * Requests sent with `expect: 100-continue` whose senders were told to go on
 * (`100 Continue`): their bodies come. One refused on its headers (too large,
 * too busy, not allowed) is answered without it, and its sender sends no body
 * at all (curl asks so for a body over 1 MB).
 */
const invited = new WeakSet<IncomingMessage>();

const expectsContinue = (req: IncomingMessage): boolean => /^100-continue$/i.test(req.headers.expect?.trim() ?? '');

/** Whether the rest of a request's body is on its way (and worth reading before the connection closes). */
export const bodyComing = (req: IncomingMessage): boolean => !req.complete && (!expectsContinue(req) || invited.has(req));

/** The body of a delivery, once it fits; `goOn` sends `100 Continue` to a sender that waits for it. */
export function readBody(req: IncomingMessage, limit: number, budget: Budget, goOn: () => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req.headers);
    // A declared body too large, or one that does not fit the budget now, is refused before a byte is read.
    const early = declared === undefined ? undefined : declared > limit ? new BodyTooLarge(`${declared}`) : budget.used + declared > budget.max ? new Busy() : undefined;
    if (early) {
      req.resume();
      reject(early);
      return;
    }
    if (expectsContinue(req)) {
      invited.add(req);
      goOn();
    }
    const sink = new BodySink(declared, budget);
    let settled = false;
    const fail = (err: Error) => {
      settled = true;
      sink.release();
      reject(err);
    };
    req.on('data', (c: Buffer) => {
      if (settled) return;
      if (!sink.add(c)) return fail(new Error('the body is longer than its Content-Length'));
      if (sink.size > limit) return fail(new BodyTooLarge(`${sink.size}`));
      if (budget.used > budget.max) fail(new Busy());
    });
    req.on('end', () => {
      if (settled) return;
      const body = sink.whole();
      if (!body) return fail(new Error('the body is shorter than its Content-Length'));
      settled = true;
      sink.release();
      resolve(body);
    });
    req.on('error', (e) => {
      if (!settled) fail(e);
    });
    req.on('close', () => {
      if (!settled) fail(new Error('the sender closed the connection'));
    });
  });
}
