// expect: RE
// An index out of bounds: a panic, exit status 101.
fn main() {
    let empty: Vec<i64> = Vec::new();
    let i = std::env::args().count() + 4;
    println!("{}", empty[i]);
}
