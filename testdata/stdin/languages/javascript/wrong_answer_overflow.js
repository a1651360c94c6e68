// expect: WA
// `| 0` makes a sum a 32-bit integer: 2147483647 + 1 gives -2147483648.
const words = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
for (let i = 0; i < words[0]; i++) console.log((words[1 + 2 * i] + words[2 + 2 * i]) | 0);
