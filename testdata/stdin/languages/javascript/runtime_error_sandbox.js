// expect: RE
// What the node profile refuses beside V8's JIT memory: a new process (child_process: the fork is
// refused). Exit status 3 when it is, 4 when a process started.
const { spawnSync } = require("child_process");
const started = spawnSync("/bin/true");
process.exit(started.error ? 3 : 4);
