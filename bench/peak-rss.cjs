// The peak resident memory of this process, in KB, for the benches' preloads
// (bench/invite/maxrss.cjs, bench/export/usage.cjs).
//
// On Linux: VmHWM of /proc/self/status, the high-water mark of this program
// image alone. Not getrusage's ru_maxrss (process.resourceUsage().maxRSS):
// libuv starts a child by fork and exec, and Linux keeps in ru_maxrss the peak
// of the image before exec too, the forked copy of the parent, so a child of a
// bench holding 139 MB reported at least 139 MB whatever it used itself
// (issue 47, docs/performance.md "At scale"). test/lint/bench-peak.test.ts
// fails if a preload measures the parent again.
// Elsewhere (no /proc): ru_maxrss.
const { readFileSync } = require('node:fs');

function peakKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // No /proc (macOS, Windows): the rusage figure.
  }
  return process.resourceUsage().maxRSS;
}

module.exports = { peakKb };
