// expect: CE
const words = require("fs").readFileSync(0, "utf8").split(/\s+/);
console.log(words.length;
