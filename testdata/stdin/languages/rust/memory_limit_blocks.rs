// expect: MLE
// 1 MiB at a time, each written to, kept: past the 256 MiB limit in the kernel's figures.
fn main() {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    loop {
        kept.push(vec![1u8; 1 << 20]);
    }
}
