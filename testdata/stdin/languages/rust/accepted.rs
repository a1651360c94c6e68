// expect: AC
// t, then t pairs: each pair's sum on a line of its own (64-bit: one sum is 2**31).
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input.split_ascii_whitespace().map(|word| word.parse::<i64>().unwrap());
    let t = numbers.next().unwrap();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for _ in 0..t {
        let (a, b) = (numbers.next().unwrap(), numbers.next().unwrap());
        writeln!(out, "{}", a + b).unwrap();
    }
}
