// Preloaded with `node --require` to report the process's peak resident memory (bench/peak-rss.cjs) and CPU time on exit.
const { peakKb } = require('../peak-rss.cjs');

process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`MAXRSS_KB=${peakKb()}\nCPU_US=${u.userCPUTime + u.systemCPUTime}\n`);
});
