// expect: TLE
fn main() {
    let mut n: u64 = 0;
    loop {
        unsafe { std::ptr::write_volatile(&mut n, std::ptr::read_volatile(&n).wrapping_add(1)) };
    }
}
