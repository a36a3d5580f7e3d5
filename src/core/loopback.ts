/**
 * What counts as this machine: `localhost`, 127.0.0.0/8 and ::1, nothing else.
 * Not `*.localhost`: the reference says such names resolve to loopback, but
 * the system resolver many machines use sends them to DNS, where anyone can
 * answer. A live key goes over plain http only to these; the embedded stub
 * and local servers are reached without a proxy.
 */
const IPV4_LOOPBACK = /^127\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)$/;

/** A host name or address (URL.hostname: IPv6 in brackets, or bare) on this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || IPV4_LOOPBACK.test(h);
}

/** The host name of a `Host` header value (`[::1]:8080` → `[::1]`), lower-case. */
export function hostNameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * Where a jobfit stub answers `{"instance": "<id>"}`, the random id it took
 * when it started (not a route of the service: the reference has no such
 * path). `jobfit stub serve` records the id beside the config, so the CLI can
 * tell our stub from any other server on this machine (a proxy, a tunnel, an
 * independent server) by something only that process knows.
 */
export const STUB_INSTANCE_PATH = '/_jobfit/stub-instance';

/** `http://localhost:4010` and `http://[::1]:4010` name the same server as `http://127.0.0.1:4010`. */
export const loopbackAlias = (origin: string) => origin.replace('//localhost:', '//127.0.0.1:').replace('//[::1]:', '//127.0.0.1:');

/** Stubs started in this process (startStub: the embedded stub, the library's): origin → instance. */
const inProcess = new Map<string, string>();

/** Notes a stub started in this process; returns the function that forgets it. */
export function noteStubInProcess(origin: string, instance: string): () => void {
  const key = loopbackAlias(origin);
  inProcess.set(key, instance);
  return () => {
    if (inProcess.get(key) === instance) inProcess.delete(key);
  };
}

/** The instance of the stub this process started at `origin`, if any. */
export function stubInProcess(origin: string): string | undefined {
  return inProcess.get(loopbackAlias(origin));
}
