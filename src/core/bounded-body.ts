/**
 * A request's body read within bounds, for both of our HTTP servers (the
 * stub's, src/stub/http/body.ts; the webhook receiver's, src/webhook/body.ts):
 * at most `limit` bytes; bodies in flight may share one budget; `Expect:
 * 100-continue` may be answered only when the body is wanted. What is left of
 * a refused body is either dropped as it comes or left unread for the caller
 * to drain after its answer (linger.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** The body is over the limit (declared or received); the message is its size in bytes. */
export class BodyTooLarge extends Error {}

/** The body does not fit the shared budget now. */
export class Busy extends Error {}

/** Bytes of bodies being read now, shared by every request of one server. */
export interface Budget {
  used: number;
  readonly max: number;
}

export interface BodyBounds {
  /** The most bytes a body may have. */
  limit: number;
  /** Shared by the bodies in flight; past its max a body is refused as Busy. None: no such bound. */
  budget?: Budget;
  /**
   * Sends `100 Continue` to a sender that waits for it, once the body is
   * wanted (a server with a `checkContinue` listener). None: the server has
   * answered it already, or node has.
   */
  goOn?: () => void;
  /**
   * The rest of a refused body: 'drop' reads it and drops it as it comes;
   * 'leave' leaves it unread (paused) for the caller to drain after its answer.
   */
  rest: 'drop' | 'leave';
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
 * (`100 Continue`, through `goOn`): their bodies come. One refused on its
 * headers (too large, too busy, not allowed) is answered without it, and its
 * sender sends no body at all (curl asks so for a body over 1 MB).
 */
const invited = new WeakSet<IncomingMessage>();

const expectsContinue = (req: IncomingMessage): boolean => /^100-continue$/i.test(req.headers.expect?.trim() ?? '');

/**
 * Whether the rest of a request's body is on its way (and worth reading
 * before the connection closes), on a server that answers `100 Continue`
 * through readBoundedBody's `goOn`.
 */
export const bodyComing = (req: IncomingMessage): boolean => !req.complete && (!expectsContinue(req) || invited.has(req));

/** A body declared too large, or one that does not fit the budget now: refused before a byte is read. */
function refusedOnHeaders(declared: number | undefined, limit: number, budget: Budget): Error | undefined {
  if (declared === undefined) return undefined;
  if (declared > limit) return new BodyTooLarge(`${declared}`);
  return budget.used + declared > budget.max ? new Busy() : undefined;
}

/** The body of a request, once it fits its bounds; rejects with BodyTooLarge, Busy, or the reason it was cut off. */
export function readBoundedBody(req: IncomingMessage, bounds: BodyBounds): Promise<Buffer> {
  const { limit, goOn, rest } = bounds;
  const budget = bounds.budget ?? { used: 0, max: Infinity };
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req.headers);
    const early = refusedOnHeaders(declared, limit, budget);
    if (early) {
      if (rest === 'drop') req.resume();
      reject(early);
      return;
    }
    if (goOn && expectsContinue(req)) {
      invited.add(req);
      goOn();
    }
    const sink = new BodySink(declared, budget);
    let settled = false;
    const fail = (err: Error) => {
      settled = true;
      sink.release();
      // Not destroyed here: the caller answers first, then drains the rest (linger.ts).
      if (rest === 'leave') req.pause();
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
