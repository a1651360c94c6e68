// expect: WA
// 32-bit sums that wrap (2147483647 + 1 gives -2147483648).
use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<i32> = input.split_ascii_whitespace().map(|word| word.parse().unwrap()).collect();
    for pair in numbers[1..].chunks(2) {
        println!("{}", pair[0].wrapping_add(pair[1]));
    }
}
