// Preloaded with `node --require` to report the process's peak resident memory on exit (bench/peak-rss.cjs).
const { peakKb } = require('../peak-rss.cjs');

process.on('exit', () => {
  process.stderr.write(`MAXRSS_KB=${peakKb()}\n`);
});
