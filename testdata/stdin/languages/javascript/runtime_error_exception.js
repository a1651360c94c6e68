// expect: RE
// A property of undefined: an uncaught TypeError, exit status 1.
const words = require("fs").readFileSync(0, "utf8").split(/\s+/);
console.log(words.missing.length);
