// Preloaded with `node --require` to report the process's peak resident memory on exit.
process.on('exit', () => {
  process.stderr.write(`MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
