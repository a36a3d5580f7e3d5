// Preloaded with `node --require` to report the process's peak resident memory and CPU time on exit.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`MAXRSS_KB=${u.maxRSS}\nCPU_US=${u.userCPUTime + u.systemCPUTime}\n`);
});
