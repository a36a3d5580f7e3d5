// Preloaded (node.exe -r) into wine-relay.cjs of .ci/wine-setup.sh, which runs
// `process.execPath ARGS` as a child with Windows pipes for stdio: here the
// child is the standalone jobfit.exe named by JOBFIT_WINE_EXE instead of node.exe
// (under Wine a Unix pipe given to a Windows program fails in libuv: see wine-setup.sh).
'use strict';
if (!process.env.JOBFIT_WINE_EXE) throw new Error('JOBFIT_WINE_EXE names the executable the relay runs');
process.execPath = process.env.JOBFIT_WINE_EXE;
