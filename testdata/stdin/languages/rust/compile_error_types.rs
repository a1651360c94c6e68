// expect: CE
fn main() {
    let sum: i64 = "not a number";
    println!("{}", sum);
}
