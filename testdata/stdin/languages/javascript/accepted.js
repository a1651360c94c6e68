// expect: AC
// t, then t pairs: each pair's sum on a line of its own (doubles: 2**31 is exact).
const words = require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean).map(Number);
const out = [];
for (let i = 0; i < words[0]; i++) out.push(words[1 + 2 * i] + words[2 + 2 * i]);
console.log(out.join("\n"));
