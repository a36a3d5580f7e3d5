/**
 * nginx's lingering close, for both of our HTTP servers (the stub's 413,
 * src/stub/http/body.ts; the webhook listener's refusals,
 * src/webhook/gate.ts): an answer written before its request's body was
 * read in full. Ended at once, node would close the socket with unread bytes
 * and the sender, still writing, would get a reset, often before it has read
 * the answer. So the rest of the body is read, each chunk dropped as it comes
 * (memory does not grow with it), and once it has ended the answer is ended
 * and node closes the connection (the caller sent `connection: close`). A
 * sender that goes on past `maxBytes` or `ms` (one that never stops) is cut
 * off once the answer is out; one that closes first ends it too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Reads and drops the rest of `req`'s body, then ends `res` (whose head and body the caller has written). */
export function lingerThenClose(req: IncomingMessage, res: ServerResponse, o: { maxBytes: number; ms: number }): void {
  if (req.readableEnded || req.destroyed) {
    res.end();
    return;
  }
  let left = o.maxBytes;
  let done = false;
  const finish = (cut: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.removeListener('data', onData);
    res.end();
    if (cut) res.once('finish', () => req.socket.destroy());
  };
  const onData = (c: Buffer) => {
    left -= c.length;
    if (left < 0) finish(true);
  };
  const timer = setTimeout(() => finish(true), o.ms);
  timer.unref();
  req.on('data', onData);
  req.once('end', () => finish(false));
  req.once('close', () => finish(false));
  req.resume();
}
